package codextest_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/hooks/spool"
	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// buildHandler builds cmd/codeman-hook into dir.
func buildHandler(t *testing.T, dir string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("codextest: go not found in PATH; it builds codeman-hook")
	}
	path := filepath.Join(dir, "codeman-hook")
	var out bytes.Buffer
	cmd := exec.Command(goBin, "build", "-o", path, "github.com/codeman-dev/codeman/cmd/codeman-hook")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("build codeman-hook: %v\n%s", err, out.String())
	}
	return path
}

// The hooks codeman's installer writes and trusts run in the real Codex:
// no "Hooks need review" dialog opens, and a turn's Stop lands in the
// spool as the marker of Codex's pane, which proves that Codex passes
// TMUX and TMUX_PANE to its hooks.
func TestInstalledHooks_MarkStop(t *testing.T) {
	if _, ok := codextest.FindCodex(); !ok || testing.Short() {
		// NewSession skips and names what is missing.
		codextest.NewSession(t, codextest.Options{})
	}
	bin := t.TempDir()
	handler := buildHandler(t, bin)
	var installed codexhooks.Report
	s := codextest.NewSession(t, codextest.Options{
		Setup: func(codexHome string) error {
			home, err := codexhooks.Home(func(k string) string {
				if k == "CODEX_HOME" {
					return codexHome
				}
				return ""
			})
			if err != nil {
				return err
			}
			installed, err = codexhooks.Install(codexhooks.Options{Home: home, Binary: filepath.Join(bin, "codeman"), Handler: handler})
			return err
		},
	})
	if len(installed.Trusted) != len(codexhooks.Entries) {
		t.Fatalf("install trusted %v", installed.Trusted)
	}
	if screen := s.Capture(); strings.Contains(screen, "Hooks need review") {
		t.Fatalf("Codex asks to review the installed hooks:\n%s", screen)
	}
	env := map[string]string{}
	for _, kv := range s.PaneEnv() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	dir, err := spool.Dir(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}

	s.API().Handle("say hello", fakeopenai.Reply{Text: "Hello from the test."})
	start := time.Now()
	s.Type("say hello")
	s.WaitFor(codextest.Done(1), "the done line", 20*time.Second)

	want := map[spool.Kind]bool{spool.KindStop: false, spool.KindToolStarted: false, spool.KindPromptSubmitted: false}
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, m := range paneMarkers(t, dir, s.Address(), start) {
			if _, ok := want[m.Kind()]; ok {
				want[m.Kind()] = true
			}
		}
		if want[spool.KindStop] && want[spool.KindToolStarted] && want[spool.KindPromptSubmitted] {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("markers of pane %s in %s after 10s: %v (seen per kind)", s.Address(), dir, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// paneMarkers reads the spool's markers of pane written since start.
func paneMarkers(t *testing.T, dir, pane string, start time.Time) []spool.Marker {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []spool.Marker
	for _, e := range entries {
		if !spool.IsMarker(e.Name()) {
			continue
		}
		m, err := spool.Read(filepath.Join(dir, e.Name()), spool.MaxMarkerSize)
		if err != nil || m.Pane != pane || m.At.Before(start) {
			continue
		}
		out = append(out, m)
	}
	return out
}
