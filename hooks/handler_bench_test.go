package hooks_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkHookCommand measures one `codeman hook` run end to end, from
// process start to exit, with a real Stop payload: what Claude Code waits
// for on every hook event. It builds the binary once; when the build fails
// (a command of cmd/codeman may be mid-edit) it skips and says so.
//
//	go test -run '^$' -bench HookCommand ./hooks/
func BenchmarkHookCommand(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go not found in PATH: cannot build codeman")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "codeman")
	// As the plugin builds it: without urfave/cli's man-page support,
	// whose markdown package costs 0.4 ms at every start.
	build := exec.Command(goTool, "build", "-tags", "urfave_cli_no_docs", "-o", bin, "github.com/codeman-dev/codeman/cmd/codeman")
	if out, err := build.CombinedOutput(); err != nil {
		b.Skipf("build codeman (a command may be mid-edit): %v\n%s", err, out)
	}
	payload := stopPayloadFromReference(b)
	runtime := filepath.Join(dir, "run")
	if err := os.Mkdir(runtime, 0o700); err != nil {
		b.Fatal(err)
	}
	env := []string{
		"HOME=" + dir,
		"XDG_RUNTIME_DIR=" + runtime,
		"TMUX=/tmp/tmux-1000/default,4242,0",
		"TMUX_PANE=%3",
	}
	var runs []time.Duration
	for b.Loop() {
		cmd := exec.Command(bin, "hook")
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(payload)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		runs = append(runs, time.Since(start))
		if err != nil || len(out) > 0 {
			b.Fatalf("codeman hook: %v, output %q", err, out)
		}
	}
	slices.Sort(runs)
	b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "ms-median")
	// Every run left the Stop marker of one pane, each in place of the last.
	if n := len(markerFiles(b, filepath.Join(runtime, "codeman", "spool"))); n != 1 {
		b.Errorf("%d markers for %d runs of one pane and kind, want 1", n, len(runs))
	}
}

// stopPayloadFromReference returns the real Stop payload of Claude Code
// 2.1.328.
func stopPayloadFromReference(tb testing.TB) []byte {
	tb.Helper()
	for _, c := range perEventPayloads(tb) {
		if c.Label == "per-event Stop" {
			return c.Payload
		}
	}
	tb.Fatal("no Stop payload in one-payload-per-event.json")
	return nil
}
