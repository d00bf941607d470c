package daemon

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
)

// screenSession starts the simulated Claude (or, with extra arguments,
// another look) in a detached GNU screen session (an 80x24 window) and
// returns its address and input log.
func (r *rig) screenSession(prompt string, extra ...string) (addr, log string) {
	r.t.Helper()
	if _, err := exec.LookPath("screen"); err != nil {
		r.t.Skip("GNU screen is not installed: this test needs the screen program on PATH")
	}
	exe, _ := os.Executable()
	log = filepath.Join(r.t.TempDir(), "screen.jsonl")
	name := fmt.Sprintf("cm%d", time.Now().UnixNano()%1e9)
	cmd := exec.Command("screen", slices.Concat([]string{"-U", "-dmS", name, "-c", "/dev/null",
		"env", "CODEMAN_TEST_ROLE=sim", "LANG=C.UTF-8", "TERM=xterm-256color", exe}, r.simArgs(log, prompt, extra...))...)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("start screen: %v: %s", err, out)
	}
	var full string
	r.waitFor("the screen session", 10*time.Second, func() bool {
		names, _ := screen.ListSessions(context.Background())
		for _, n := range names {
			if strings.HasSuffix(n, "."+name) {
				full = n
			}
		}
		return full != ""
	})
	r.t.Cleanup(func() { exec.Command("screen", "-S", full, "-X", "quit").Run() })
	return "screen:" + full + ":0", log
}

// reopenScreenWindow closes the screen window at addr and opens a new
// program, the simulated session, under its number. It returns the new
// program's input log once that program runs.
func (r *rig) reopenScreenWindow(addr string) (log string, err error) {
	win, err := screen.ParseAddress(addr)
	if err != nil {
		return "", err
	}
	exe, _ := os.Executable()
	log = filepath.Join(r.t.TempDir(), fmt.Sprintf("reopen%d.jsonl", time.Now().UnixNano()))
	scr := func(args ...string) error {
		if out, err := exec.Command("screen", append([]string{"-S", win.Session}, args...)...).CombinedOutput(); err != nil {
			return fmt.Errorf("screen %q: %v: %s", args, err, out)
		}
		return nil
	}
	old, _ := screen.WindowProcess(win)
	steps := [][]string{
		{"-X", "screen", "-t", "hold", "1", "sh", "-c", "sleep 3600"}, // keeps the session alive
		{"-p", win.Window, "-X", "kill"},
		{"-X", "screen", "-t", "sim", win.Window, "env", "CODEMAN_TEST_ROLE=sim", "LANG=C.UTF-8", "TERM=xterm-256color",
			exe, "--work", "1s", "--seed", "7", "--log", log, "--prompt", "hello"},
	}
	for _, args := range steps {
		if err := scr(args...); err != nil {
			return "", err
		}
	}
	return log, wait.Until("the new window's program to start", 30*time.Second, func() bool {
		now, ok := screen.WindowProcess(win)
		return ok && now != old
	})
}

func TestDaemon_ScreenWindow(t *testing.T) {
	r := newRig(t)
	addr, log := r.screenSession("hello there")
	r.attach(addr, "kickstart_prompt=")
	want := []string{respawn.DefaultUpdatePrompt, "/clear", "/init"}
	r.waitFor("a full cycle through screen", 90*time.Second, func() bool { return hasPrefix(submits(t, log), want) })
	assertNothingWhileBusy(t, log)
	st, err := r.client.Explain(context.Background(), addr, 0)
	if err != nil || st.Live == nil || st.Live.Error != "" || !st.Live.PromptBox {
		t.Fatalf("explain's live screen %+v, %v; want the prompt box from the newest hardcopy", st.Live, err)
	}

	// A restarted daemon adopts the window from the state file.
	r.stopDaemon()
	r.start()
	panes, err := r.client.Panes(context.Background())
	if err != nil || len(panes) != 1 || panes[0].Pane != addr || !strings.HasPrefix(panes[0].Mode, "hardcopy") {
		t.Fatalf("adopted %+v, %v", panes, err)
	}

	// A window that closes ends its controller and leaves the state file
	// (the controller ends first, then the window is forgotten).
	w, _ := screen.ParseAddress(addr)
	exec.Command("screen", "-S", w.Session, "-X", "quit").Run()
	r.waitFor("the controller to end", 20*time.Second, func() bool {
		panes, err := r.client.Panes(context.Background())
		return err == nil && len(panes) == 0
	})
	r.waitFor("the window to leave the state file", 10*time.Second, func() bool {
		state, err := screen.LoadState(r.paths.ScreenState)
		return err == nil && len(state.Windows) == 0
	})
}

// A window whose adoption failed (a bad config) and whose number a new
// program then took is no longer listed as enabled, leaves the state file,
// and is not adopted when the config is fixed: the window enabled is gone.
func TestDaemon_ScreenWindowReopenedAfterFailedAdoption(t *testing.T) {
	r := newRig(t)
	addr, _ := r.screenSession("hello")
	w, _ := screen.ParseAddress(addr)
	r.waitFor("the window's program", 10*time.Second, func() bool { _, ok := screen.WindowProcess(w); return ok })
	r.attach(addr)
	r.stopDaemon()
	if err := os.WriteFile(r.config, []byte("[respawn]\ncompletion_confirm = \"soon\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.start()
	if st, err := r.client.Pane(context.Background(), addr, 0); err != nil || !strings.Contains(st.Problem, "completion_confirm") {
		t.Fatalf("the window after a start with a bad config: %+v, %v; want it listed with the config's problem", st, err)
	}

	reopened := time.Now()
	log, err := r.reopenScreenWindow(addr)
	if err != nil {
		t.Fatal(err)
	}
	var panes []api.PaneStatus
	if err := wait.Until("the window to be no longer listed", 10*time.Second, func() bool {
		panes, err = r.client.Panes(context.Background())
		return err == nil && len(panes) == 0
	}); err != nil {
		for _, p := range panes {
			t.Logf("listed: %s, problem %q", p.Pane, p.Problem)
		}
		t.Fatal(err)
	}
	if state, err := screen.LoadState(r.paths.ScreenState); err != nil || len(state.Windows) != 0 {
		t.Fatalf("state file after the window was reopened: %+v, %v", state, err)
	}
	if err := os.WriteFile(r.config, []byte(fastConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	// The daemon retries failed adoptions on a config change; nothing is
	// left to retry, so it still controls nothing.
	if h := r.health(); h.Controllers != 0 || h.Panes != 0 {
		t.Fatalf("after the config was fixed: %+v", h)
	}
	if in := inputsAfter(t, log, reopened); len(in) > 0 {
		t.Fatalf("input reached the window's new program: %+v", in)
	}
}
