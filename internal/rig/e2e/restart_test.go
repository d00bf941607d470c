package e2e

import (
	"encoding/json"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// cliStatus runs `codeman status --json` with the rig's environment.
func (r *rig) cliStatus(t *testing.T, bin string) []api.PaneStatus {
	t.Helper()
	cmd := exec.Command(bin, "status", "--json")
	cmd.Env = r.environ()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("codeman status --json: %v\n%s", err, out)
	}
	var report api.StatusReport
	if err := json.Unmarshal(out, &report); err != nil || report.V != api.Schema {
		t.Fatalf("codeman status --json: %v, version %d\n%s", err, report.V, out)
	}
	return report.Panes
}

// The real codeman binary runs as the daemon and as the hook handler. The
// daemon is killed with SIGKILL while Claude works; a new one adopts the
// pane, leaves the running turn alone and cycles it once it ends.
func TestDaemon_KilledAndRestarted(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	bin := buildCodeman(t)
	first := r.startBinary(bin)
	c := r.newClaude(t, claudetest.Options{}, bin)
	const work = "port the parser"
	answerCycle(c.API())
	c.API().Handle(work, fakeapi.Reply{Chunks: slowReply("the parser")})

	// Attached only now: codeman would cycle the idle session meanwhile.
	c.waitStartupHints()
	r.attach(c, "")
	c.Type(work)
	c.WaitFor(claudetest.Busy, "Claude at work", 10*time.Second)
	r.kill9(first)
	restarted := time.Now()
	r.startBinary(bin)

	panes := r.cliStatus(t, bin)
	if !slices.ContainsFunc(panes, func(p api.PaneStatus) bool { return p.Pane == c.Address() }) {
		t.Fatalf("codeman status lists %d pane(s), want %s adopted:\n%+v", len(panes), c.Address(), panes)
	}
	update := c.waitRequest(stepIs(stepUpdate), "the update prompt", cycleTimeout)
	events := c.Events()

	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	workStop := c.mustHook(events, "Stop", workStart.At, "the work turn", nil)
	if !workStop.At.After(restarted) {
		t.Fatalf("the turn ended at %s, before the restart at %s: the test did not restart mid-turn", rel(c.start, workStop.At), rel(c.start, restarted))
	}
	c.checkNothingTypedDuring(workStart.At, workStop.At, "the turn across the restart", func(p string) bool { return p == work })
	if !update.At.After(workStop.At) {
		t.Errorf("the update prompt reached the model at %s, before the turn ended at %s", rel(c.start, update.At), rel(c.start, workStop.At))
	}
	st, err := r.pane(c.Address())
	if err != nil {
		t.Fatal(err)
	}
	if !st.HooksActive || st.LastHook == "" {
		t.Errorf("the new daemon saw no hook marker (hooks active %t, last hook %q)", st.HooksActive, st.LastHook)
	}
	if ds := sends(st.Status.Decisions); len(ds) == 0 || ds[0].Step != respawn.StepUpdate {
		t.Errorf("the new daemon's sends %v, want the update prompt first", ds)
	}
	c.checkTimeline()
}
