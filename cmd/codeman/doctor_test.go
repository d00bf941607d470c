package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/doctor"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// doctor against an in-process daemon of another version on an isolated
// tmux server, with two enabled panes: one it controls and one it could
// not adopt. The pane not controlled is the one problem, so doctor fails;
// the version difference is a warning.
func TestDoctor_AgainstDaemon(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	dir, err := os.MkdirTemp("", "doc") // short: the socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for k, v := range map[string]string{
		"XDG_RUNTIME_DIR": filepath.Join(dir, "run"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"), "HOME": dir,
		// No default tmux server of the developer's is looked at.
		"TMUX_TMPDIR": filepath.Join(dir, "tmux"), "TMUX": "", "TMUX_PANE": "", "CLAUDE_CONFIG_DIR": "",
	} {
		t.Setenv(k, v)
	}
	if err := os.Mkdir(os.Getenv("XDG_RUNTIME_DIR"), 0o700); err != nil {
		t.Fatal(err)
	}

	good := srv.NewSession("good", "sleep", "600")
	bad := srv.NewSession("bad", "sleep", "600")
	srv.Tmux("set-option", "-p", "-t", good, "@codeman", "on")
	srv.Tmux("set-option", "-p", "-t", bad, "@codeman", "no-such-profile")

	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	// The daemon finds the test's server as if started inside it.
	env := func(k string) string {
		if k == "TMUX" {
			return srv.Socket() + ",1,0"
		}
		return os.Getenv(k)
	}
	d := daemon.New(daemon.Options{Paths: paths, ConfigPath: config.DefaultPath(), Version: "v0.0.1-old", Env: env})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("daemon: %v", err)
		}
	})
	client := api.NewClient(paths.Socket)
	var panes []api.PaneStatus
	var panesErr error
	if err := wait.Until("the daemon to list both enabled panes", 10*time.Second, func() bool {
		panes, panesErr = client.Panes(context.Background())
		return panesErr == nil && len(panes) == 2
	}); err != nil {
		t.Fatalf("%v: %+v, %v", err, panes, panesErr)
	}

	out, err := runDoctor(t, "--json")
	if err == nil || !strings.Contains(err.Error(), "doctor found 1 problem") {
		t.Fatalf("doctor --json returned %v, want 1 problem\n%s", err, out)
	}
	var rep doctor.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	byName := map[string]doctor.Check{}
	for _, c := range rep.Checks {
		byName[c.Name] = c
	}
	goodAddr := "tmux:" + srv.Socket() + ":" + good
	// tmux 3.2 is tested but shows no notice on a client's status line.
	tmuxVerdict := doctor.VerdictOK
	if strings.HasPrefix(srv.Version(), "3.2") {
		tmuxVerdict = doctor.VerdictWarn
	}
	for _, w := range []struct {
		name    string
		verdict doctor.Verdict
		text    string
	}{
		{"tmux", tmuxVerdict, "tmux 3"},
		{"tmux server " + srv.Socket(), tmuxVerdict, "runs tmux"},
		{"daemon", doctor.VerdictOK, "controls 1 pane"},
		{"daemon version", doctor.VerdictWarn, "the daemon runs codeman v0.0.1-old, this binary is " + resolveVersion()},
		{"pane good:0.0 (" + good + ")", doctor.VerdictOK, "controlled"},
		{"pane tmux:" + srv.Socket() + ":" + bad, doctor.VerdictError, `unknown profile "no-such-profile"`},
	} {
		c, ok := byName[w.name]
		if !ok || c.Verdict != w.verdict || !strings.Contains(c.Message, w.text) {
			t.Errorf("check %q = %+v (found %t), want %s with %q\n%s", w.name, c, ok, w.verdict, w.text, out)
		}
	}
	if rep.Errors != 1 {
		t.Errorf("%d errors, want 1:\n%s", rep.Errors, out)
	}

	// The text form: one line per check, the problem with what to do.
	text, err := runDoctor(t)
	if err == nil {
		t.Fatalf("doctor passed with a pane not controlled:\n%s", text)
	}
	if want := "error  pane tmux:" + srv.Socket() + ":" + bad + ": enabled but not controlled: "; !strings.Contains(text, want) {
		t.Errorf("doctor lacks %q:\n%s", want, text)
	}
	if !strings.Contains(text, "try: fix what it names") || strings.Contains(text, goodAddr+": enabled") {
		t.Errorf("doctor's pane lines:\n%s", text)
	}
	if lines := strings.Count(text, "\n"); lines != len(rep.Checks) {
		t.Errorf("%d lines for %d checks:\n%s", lines, len(rep.Checks), text)
	}
}

// runDoctor runs codeman doctor with args and returns what it printed.
func runDoctor(t *testing.T, args ...string) (string, error) {
	t.Helper()
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, io.Discard
	err := app.Run(append([]string{"codeman", "doctor"}, args...))
	return out.String(), err
}
