package daemon

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/copilot"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
)

// copilotSim are the simulated session's arguments for its Copilot look,
// the registry's: with --allow-tool write, /init's write runs without the
// permission prompt codeman leaves to a person.
func copilotSim(t *testing.T) []string {
	t.Helper()
	info, err := agents.Lookup(copilot.Name)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Concat([]string{"--look", info.Sim.Look}, info.Sim.Args)
}

// A pane attached with the agent left to auto is recognized as Copilot by
// its screen (the program is this test binary) and cycled the Copilot
// way: the update prompt naming .github/copilot-instructions.md, /clear,
// /init, the kickstart, each submitted and none while the session worked,
// with Copilot's hooks (the event's name an argument of the handler) seen.
func TestDaemon_CyclesCopilotPaneInOrder(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.lookSession("copilot", "hello there", "❯", copilotSim(t)...)
	r.cyclesAgentPane(addr, log, copilot.Name, ".github/copilot-instructions.md", "/clear")
}

// The same cycle in a GNU screen window, read from its hardcopies. In
// the window's 80 columns the look cuts a box row short where the real
// CLI wraps it, so the update prompt is one that fits.
func TestDaemon_CyclesCopilotScreenWindow(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.screenSession("hello there", copilotSim(t)...)
	// The agent is recognized once, when the pane is attached. A
	// hardcopy of screen 4 is not UTF-8: the footer's ASCII words tell.
	w, _ := screen.ParseAddress(addr)
	copy := filepath.Join(t.TempDir(), "hardcopy")
	r.waitFor("Copilot's footer in the window", 10*time.Second, func() bool {
		exec.Command("screen", "-S", w.Session, "-p", w.Window, "-X", "hardcopy", copy).Run()
		b, _ := os.ReadFile(copy)
		return strings.Contains(string(b), "Manual Approval")
	})
	r.cyclesAgentPane(addr, log, copilot.Name, ".github/copilot-instructions.md", "/clear",
		"update_prompt=note your progress in .github/copilot-instructions.md")
}

// Copilot asks to run a command: codeman leaves the permission prompt
// alone (its Enter and its digits would approve) past two rounds of
// no_output_timeout and completion_confirm, and the pane's status says a
// person must give permission.
func TestDaemon_CopilotPermissionLeftAlone(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.lookSession("copilot", "clean the build, with permission", "❯", copilotSim(t)...)
	st, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr})
	if err != nil || st.Agent != copilot.Name {
		t.Fatalf("attach: agent %q, %v; want it recognized as copilot", st.Agent, err)
	}
	var need *respawn.Need
	r.waitFor("the permission prompt raised as a need", 30*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		if err == nil && st.Status.NeedsYou != nil && st.Status.NeedsYou.Kind == respawn.NeedPermission {
			need = st.Status.NeedsYou
		}
		return need != nil
	})
	// From fastConfig: no_output_timeout 5s, completion_confirm 1s.
	const leftAlone = 2*5*time.Second + time.Second
	r.waitFor("the prompt to stay open past the timers", leftAlone+10*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && st.Status.NeedsYou != nil && st.Status.NeedsYou.Kind == respawn.NeedPermission &&
			time.Since(need.Since) > leftAlone
	})
	if got := submits(t, log); len(got) != 0 {
		t.Fatalf("the permission prompt was answered or typed into: %q", got)
	}
	assertNothingWhileBusy(t, log)
	ex, err := r.client.Explain(context.Background(), addr, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l := ex.Live; l == nil || l.Error != "" || !l.Permission || l.Working {
		t.Fatalf("live screen %+v, want the permission prompt read just now", l)
	}
}
