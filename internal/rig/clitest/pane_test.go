package clitest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// echoCLI stands in for a CLI: it draws a prompt, reads a line, reports it
// to a hook as a CLI would, and exits with status 3.
const echoCLI = `printf 'ready\n'; read -r line; ` +
	`printf '{"hook_event_name":"Stop","line":"%s"}' "$line" | "$REC" hook; ` +
	`printf 'got %s\n' "$line"; exit 3`

// echoPane is a pane for the stand-in CLI and the script that records its
// hook calls.
func echoPane(t *testing.T) (*clitest.Pane, string) {
	t.Helper()
	p := clitest.NewPane(t, clitest.Config{Pkg: "clitest", Program: "echo-cli"})
	script, err := p.RecordEvents()
	if err != nil {
		t.Fatal(err)
	}
	return p, script
}

// A whole session on a stand-in CLI: typed input, a hook call, the exit,
// and a recording saved after the program has gone, whose pipe tmux no
// longer closes on request.
func TestPane_RecordsUntilTheCLIExits(t *testing.T) {
	p, script := echoPane(t)
	p.Start(clitest.Launch{
		Env:    []string{"REC=" + script},
		Argv:   []string{"/bin/sh", "-c", echoCLI},
		Record: true,
		Ready:  clitest.Contains("ready"),
		// Waits on a tmux server's start and a shell, on a loaded machine.
		Timeout: 10 * time.Second,
	})
	if got := p.Address(); got != "tmux:"+p.Socket()+":"+p.PaneID() {
		t.Errorf("Address %q", got)
	}
	if env := p.PaneEnv(); !slices.Contains(env, "TMUX_PANE="+p.PaneID()) || !slices.Contains(env, "HOME="+p.Home()) {
		t.Errorf("PaneEnv %q lacks the pane or HOME", env)
	}
	if got := p.Tmux("display-message", "-p", "-t", p.PaneID(), "#{pane_current_path}"); strings.TrimSpace(got) != p.Dir() {
		t.Errorf("the CLI runs in %q, want the project dir %q", got, p.Dir())
	}

	p.Type("hello world")
	stop := p.WaitForEvent(clitest.Hook("Stop", time.Time{}), "Stop", 5*time.Second)
	if got := stop.Field("line"); got != "hello world" {
		t.Errorf("hook payload line %q, want the typed line", got)
	}
	screen, status := p.WaitForExit(5 * time.Second)
	if status != "3" || !strings.Contains(screen, "got hello world") {
		t.Errorf("exit status %q, screen:\n%s", status, screen)
	}

	path := filepath.Join(t.TempDir(), "session.cast")
	p.SaveCast(path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var output strings.Builder
	var markers []string
	for _, line := range lines[1:] {
		var e [3]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if e[1] == "o" {
			output.WriteString(e[2].(string))
		} else {
			markers = append(markers, e[2].(string))
		}
	}
	for _, want := range []string{"ready", "got hello world"} {
		if !strings.Contains(output.String(), want) {
			t.Errorf("recorded output lacks %q:\n%q", want, output.String())
		}
	}
	want := []string{`hook:{"hook_event_name":"Stop","line":"hello world"}`, clitest.EndMarker}
	if !slices.Equal(markers, want) {
		t.Errorf("markers %q, want %q", markers, want)
	}
}

// The stand-in CLI in a GNU screen window: the address names the window,
// and the CLI, so its hooks too, sees the window's STY and WINDOW and not
// the pane's TMUX.
func TestPane_InScreen(t *testing.T) {
	dir, err := os.MkdirTemp("", "scr") // short and 0700, as screen wants it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("SCREENDIR", dir)
	p, script := echoPane(t)
	p.Start(clitest.Launch{
		Env: []string{"REC=" + script},
		Argv: []string{"/bin/sh", "-c", `printf 'ready\n'; read -r line; ` +
			`printf '{"hook_event_name":"Stop","line":"%s","sty":"%s","window":"%s","tmux":"%s"}' "$line" "$STY" "$WINDOW" "$TMUX$TMUX_PANE" | "$REC" hook`},
		Screen:  true,
		Ready:   clitest.Contains("ready"),
		Timeout: 10 * time.Second,
	})
	sty, ok := strings.CutPrefix(p.Address(), "screen:")
	sty, ok2 := strings.CutSuffix(sty, ":0")
	if !ok || !ok2 {
		t.Fatalf("Address %q, want screen:<PID.name>:0", p.Address())
	}
	if env := p.PaneEnv(); !slices.Contains(env, "STY="+sty) || !slices.Contains(env, "WINDOW=0") {
		t.Errorf("PaneEnv %q lacks the window", env)
	}

	p.Type("hello world")
	stop := p.WaitForEvent(clitest.Hook("Stop", time.Time{}), "Stop", 5*time.Second)
	for key, want := range map[string]string{"line": "hello world", "sty": sty, "window": "0", "tmux": ""} {
		if got := stop.Field(key); got != want {
			t.Errorf("the CLI saw %s %q, want %q", key, got, want)
		}
	}
	p.WaitForExit(5 * time.Second)
}
