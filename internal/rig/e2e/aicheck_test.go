package e2e

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// checker returns the AI checker a daemon makes from the rig's config,
// with the environment of a user whose claude talks to api. The in-process
// daemon would otherwise hand checks this test process's environment.
func (r *rig) checker(t *testing.T, api *fakeapi.Server) respawn.Checker {
	t.Helper()
	file, err := config.Load(r.config)
	if err != nil {
		t.Fatal(err)
	}
	// What claudetest gives the interactive session (docs/claude-code.md,
	// "Running it offline"); `claude -p` needs no seeded HOME.
	env := append(r.environ(),
		"ANTHROPIC_BASE_URL="+api.URL(),
		"ANTHROPIC_API_KEY="+claudetest.FakeAPIKey,
		"DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_MAX_RETRIES=1",
	)
	runner, err := aicheck.New(aicheck.Options{ClaudePath: file.Checks.ClaudePath, MaxConcurrent: file.Checks.MaxConcurrent, Env: env})
	if err != nil {
		t.Fatalf("AI checker: %v", err)
	}
	return runner
}

// answerChecks answers codeman's idle checks: WORKING the first time, IDLE
// after that.
func answerChecks(api *fakeapi.Server) {
	var n atomic.Int32
	api.HandleFunc(func(req fakeapi.Request) (fakeapi.Reply, bool) {
		if !isCheck(req) {
			return fakeapi.Reply{}, false
		}
		if n.Add(1) == 1 {
			return fakeapi.Reply{Text: "WORKING\nThe footer says esc to interrupt."}, true
		}
		return fakeapi.Reply{Text: "IDLE\nThe completion line is shown and the prompt box is empty."}, true
	})
}

// Without codeman's hooks the end of a turn goes through the silence
// timers and the AI idle check, the real `claude -p` asking the fake: a
// WORKING verdict starts no cycle and puts the check on cooldown, the next
// check after the cooldown says IDLE and the cycle starts.
func TestAICheck_WorkingThenIdle(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	fake := fakeapi.New(t)
	answerChecks(fake)
	r.startDaemon(r.checker(t, fake))
	c := r.newClaude(t, claudetest.Options{API: fake}, "") // no codeman hooks
	const work = "summarize the readme"
	answerCycle(fake)
	fake.Handle(work, fakeapi.Reply{Delay: 3 * time.Second, Text: "The README describes a small demo project."})

	r.attach(c, aiCheckProfile)
	c.Type(work)
	first := c.waitRequest(isCheck, "the first AI check", 60*time.Second)
	cooling := r.waitPane(c, "the cooldown after WORKING", idleCheckTimeout, func(st api.PaneStatus) bool {
		return st.Status.IdleCheck.Why == "on cooldown" || st.Status.Cycles > 0
	})
	if state, _ := respawn.ParseState(cooling.Status.State); state.InCycle() || cooling.Status.Cycles != 0 {
		t.Errorf("after WORKING the pane is %s with %d cycle(s), want no cycle", cooling.Status.State, cooling.Status.Cycles)
	}
	if steps := stepsTyped(fake.Requests()); len(steps) != 0 {
		t.Errorf("after WORKING codeman's %q reached the model", steps)
	}
	second := c.waitRequest(func(req fakeapi.Request) bool { return isCheck(req) && req.At.After(first.At) },
		"the AI check after the cooldown", idleCheckCooldown+60*time.Second)
	update := c.waitRequest(stepIs(stepUpdate), "the update prompt after IDLE", 30*time.Second)
	events := c.Events()

	stop := c.mustHook(events, "Stop", c.start, "the work turn", nil)
	if !first.At.After(stop.At) {
		t.Errorf("the first AI check came at %s, before the turn ended at %s", rel(c.start, first.At), rel(c.start, stop.At))
	}
	if gap := second.At.Sub(first.At); gap < idleCheckCooldown {
		t.Errorf("the second AI check came %s after the first, want at least the cooldown (%s)", gap, idleCheckCooldown)
	}
	checkOrder(t, c.start, moment{"the first check", first.At}, moment{"the second check", second.At}, moment{"the update prompt", update.At})
	if steps := stepsTyped(fake.Requests()); len(steps) == 0 || steps[0] != stepUpdate {
		t.Errorf("codeman's steps reached the model as %q, want the update prompt first", steps)
	}
	st, err := r.pane(c.Address())
	if err != nil {
		t.Fatal(err)
	}
	if st.LastHook != "" {
		t.Errorf("codeman got hook %s from a pane without its hooks", st.LastHook)
	}
	for _, verdict := range []string{"AI idle check: WORKING", "AI idle check: IDLE"} {
		if !slices.ContainsFunc(st.Status.Decisions, func(d respawn.Decision) bool { return strings.Contains(d.Reason, verdict) }) {
			t.Errorf("no decision records %q", verdict)
		}
	}
	c.checkTimeline()
}
