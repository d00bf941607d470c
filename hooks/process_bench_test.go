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

// floorSource is the process floor of a hook handler: a Go program that
// reads stdin and writes it as one file with create and rename, the least
// any handler does. It writes into $FLOOR_DIR.
const floorSource = `package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	data, _ := io.ReadAll(os.Stdin)
	dir := os.Getenv("FLOOR_DIR")
	tmp := filepath.Join(dir, ".marker."+strconv.Itoa(os.Getpid())+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		os.Exit(1)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil || os.Rename(tmp, filepath.Join(dir, "marker.json")) != nil {
		os.Exit(1)
	}
}
`

// releaseFlags are the flags the plugin builds codeman's binaries with.
var releaseFlags = []string{"-trimpath", "-ldflags=-s -w", "-tags", "urfave_cli_no_docs"}

// BenchmarkHookProcess measures a hook handler from process start to exit
// against the process floor (floorSource, built the same way), run in
// turns with the real Stop payload of Claude Code 2.1.328 on stdin, so
// that load on a shared machine weighs on both alike. Each sub-benchmark
// is one handler: codeman-hook, what `codeman hooks install` writes when it
// finds it, and `codeman hook`, the whole CLI. Besides ns/op (one run of
// each), it reports each side's mean (floor-ns/op, hook-ns/op) and the
// handler's cost in floors (x-floor, of the means; x-floor-p50, of the
// medians). The target is codeman-hook at 1.3 floors or less.
//
//	go test -run '^$' -bench HookProcess -benchtime=400x -count=5 ./hooks/
func BenchmarkHookProcess(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go not found in PATH: cannot build the programs")
	}
	dir := b.TempDir()
	floor := buildFloor(b, goTool, dir)
	payload := stopPayloadFromReference(b)
	handlers := []struct {
		name, pkg string
		args      []string
	}{
		{"codeman-hook", "github.com/codeman-dev/codeman/cmd/codeman-hook", nil},
		{"codeman_hook", "github.com/codeman-dev/codeman/cmd/codeman", []string{"hook"}},
	}
	for _, h := range handlers {
		b.Run(h.name, func(b *testing.B) {
			bin := filepath.Join(dir, h.name)
			build := exec.Command(goTool, append(append([]string{"build"}, releaseFlags...), "-o", bin, h.pkg)...)
			if out, err := build.CombinedOutput(); err != nil {
				b.Skipf("build %s (a command may be mid-edit): %v\n%s", h.pkg, err, out)
			}
			runtime := filepath.Join(b.TempDir(), "run")
			if err := os.Mkdir(runtime, 0o700); err != nil {
				b.Fatal(err)
			}
			hookEnv := []string{
				"HOME=" + dir,
				"XDG_RUNTIME_DIR=" + runtime,
				"TMUX=/tmp/tmux-1000/default,4242,0",
				"TMUX_PANE=%3",
			}
			floorEnv := []string{"HOME=" + dir, "FLOOR_DIR=" + b.TempDir()}
			var floors, hooks []time.Duration
			i := 0
			for b.Loop() {
				// Alternate which goes first, so neither always runs
				// right after the other.
				if i%2 == 0 {
					floors = append(floors, timeRun(b, floor, nil, floorEnv, payload))
					hooks = append(hooks, timeRun(b, bin, h.args, hookEnv, payload))
				} else {
					hooks = append(hooks, timeRun(b, bin, h.args, hookEnv, payload))
					floors = append(floors, timeRun(b, floor, nil, floorEnv, payload))
				}
				i++
			}
			floorMean, hookMean := mean(floors), mean(hooks)
			b.ReportMetric(floorMean, "floor-ns/op")
			b.ReportMetric(hookMean, "hook-ns/op")
			b.ReportMetric(hookMean/floorMean, "x-floor")
			b.ReportMetric(float64(median(hooks))/float64(median(floors)), "x-floor-p50")
			if n := len(markerFiles(b, filepath.Join(runtime, "codeman", "spool"))); n != 1 {
				b.Errorf("%d markers after %d runs of one pane and kind, want 1", n, len(hooks))
			}
		})
	}
}

// buildFloor writes floorSource into a module of its own under dir and
// builds it as the plugin builds codeman's binaries.
func buildFloor(b *testing.B, goTool, dir string) string {
	b.Helper()
	src := filepath.Join(dir, "floor")
	if err := os.Mkdir(src, 0o755); err != nil {
		b.Fatal(err)
	}
	for name, content := range map[string]string{
		"go.mod":  "module floor\n\ngo 1.26\n",
		"main.go": floorSource,
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "floor-bin")
	build := exec.Command(goTool, append(append([]string{"build"}, releaseFlags...), "-o", bin, ".")...)
	build.Dir = src
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the floor program: %v\n%s", err, out)
	}
	return bin
}

// timeRun runs bin with payload on stdin and returns how long it took from
// start to exit. A handler must print nothing and exit 0.
func timeRun(b *testing.B, bin string, args, env []string, payload []byte) time.Duration {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(payload)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil || len(out) > 0 {
		b.Fatalf("%s: %v, output %q", bin, err, out)
	}
	return took
}

func mean(ds []time.Duration) float64 {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return float64(sum) / float64(len(ds))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
