package daemon

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
)

// screenSession starts the simulated Claude in a detached GNU screen
// session (an 80x24 window) and returns its address and input log.
func (r *rig) screenSession(prompt string) (addr, log string) {
	r.t.Helper()
	if _, err := exec.LookPath("screen"); err != nil {
		r.t.Skip("GNU screen is not installed: this test needs the screen program on PATH")
	}
	exe, _ := os.Executable()
	log = filepath.Join(r.t.TempDir(), "screen.jsonl")
	name := fmt.Sprintf("cm%d", time.Now().UnixNano()%1e9)
	hookCmd := fmt.Sprintf("env CODEMAN_TEST_ROLE=hook XDG_RUNTIME_DIR=%s %s", r.env["XDG_RUNTIME_DIR"], exe)
	cmd := exec.Command("screen", "-U", "-dmS", name, "-c", "/dev/null",
		"env", "CODEMAN_TEST_ROLE=sim", "LANG=C.UTF-8", "TERM=xterm-256color",
		exe, "--work", "1s", "--seed", "7", "--log", log, "--hook-cmd", hookCmd, "--prompt", prompt)
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
