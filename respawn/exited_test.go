package respawn

import (
	"fmt"
	"testing"
	"time"
)

// Once the agent's SessionEnd hook says it exited, nothing is typed,
// whatever the pane shows next (a cat of a saved capture looks just like
// the agent), until a hook of the agent says it runs again.
func TestGuard_ExitedAgent(t *testing.T) {
	h := newHarness(t, testConfig())
	h.hook(HookSessionEnded, func(k *Hook) { k.Message = "prompt_input_exit" })
	h.work(2 * time.Second) // the capture scrolls by
	h.finishTurn()
	h.advance(time.Hour)
	if len(h.sent) != 0 {
		t.Fatalf("typed %q after the agent exited\n%s", h.sends(), h.dump())
	}
	h.wantDecision("Claude exited (prompt_input_exit); nothing is typed until it runs again")
	h.hook(HookPromptSubmitted) // a new session of the agent
	h.work(2 * time.Second)
	h.finishTurn()
	h.untilState(SendingUpdate)
}

// A send the terminal refuses because the pane's program is not the agent
// is no failed send: the cycle is abandoned at once, nothing is retried,
// no need is raised, and idle is not confirmed again until the pane shows
// something new.
func TestGuard_NotAgentRefusal(t *testing.T) {
	h := cycleUntil(t, testConfig(), SendingUpdate)
	h.sendErr = fmt.Errorf("send to p: %w: the pane runs bash, a shell; nothing is typed into a shell", ErrNotAgent)
	h.untilState(Watching)
	h.advance(5 * time.Minute)
	if n := len(h.sent); n != 1 {
		t.Fatalf("%d sends, want the one refused\n%s", n, h.dump())
	}
	if need := h.c.need.cur; need.Kind != "" {
		t.Fatalf("need %+v raised for a pane that runs a shell", need)
	}
	h.wantDecision("update not typed: send to p: the agent is not the pane's program: the pane runs bash")
	h.sendErr = nil
	h.work(time.Second) // the agent again
	h.finishTurn()
	h.untilState(WaitingUpdate)
}
