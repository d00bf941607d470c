package aicheck_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// idleTerminal shows an idle Claude Code screen and records what is typed.
// respawn's own fakeTerminal is in its test files, which no other package
// sees; this is the only Terminal fake outside them.
type idleTerminal struct {
	mu    sync.Mutex
	typed []string
}

func (f *idleTerminal) Submit(_ context.Context, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.typed = append(f.typed, text)
	return nil
}

func (f *idleTerminal) Press(context.Context, respawn.Key) error { return nil }

func (f *idleTerminal) Snapshot(context.Context) (respawn.Screen, error) {
	rule := strings.Repeat("─", 80)
	return respawn.Screen{Width: 200, Height: 50, Lines: []string{
		" ▐▛███▛█   Claude Code v2.1.328", "", "❯ fix the bug", "● Fixed it.", "",
		rule, "❯\u00a0", rule, "  ⏸ manual mode on · ? for shortcuts",
	}}, nil
}

// waitDecision waits, under a real deadline, for a decision containing substr.
func waitDecision(t *testing.T, ch <-chan respawn.Decision, substr string) respawn.Decision {
	t.Helper()
	return wait.Receive(t, fmt.Sprintf("a decision containing %q", substr), waitTimeout, ch,
		func(d respawn.Decision) bool { return strings.Contains(d.String(), substr) })
}

// With the respawn core: an idle pane with AI checks on goes watching ->
// ai_checking -> a cycle on IDLE, and back to watching with a cooldown on
// WORKING, the verdicts coming from a real claude -p process.
func TestController_WithRunner(t *testing.T) {
	for _, tc := range []struct {
		mode, verdict, next string
	}{
		{"idle", "IDLE", "cycle 1 starts"},
		{"working", "WORKING", "ai_checking -> watching: AI check says WORKING"},
	} {
		t.Run(tc.verdict, func(t *testing.T) {
			f := newFakeClaude(t)
			runner := f.runner(t, tc.mode, aicheck.Options{})
			clock := clockwork.NewFakeClock()
			cfg := respawn.DefaultConfig()
			cfg.AIPlanCheck.Enabled = false
			term := &idleTerminal{}
			c := respawn.NewController(respawn.ControllerOptions{Pane: "tmux:/tmp/t:%1", Config: cfg, Agent: claude.DefaultPatterns(), Terminal: term, Checker: runner, Clock: clock})
			decisions, cancel := c.Subscribe()
			defer cancel()
			c.Start(context.Background())
			defer c.Stop()

			c.Output([]byte("● Fixed it."))
			waitDecision(t, decisions, "state stopped -> watching")
			clock.Advance(cfg.CompletionConfirm) // the pre-filter's silence
			waitDecision(t, decisions, "watching -> ai_checking")
			waitDecision(t, decisions, "AI idle check: "+tc.verdict)
			waitDecision(t, decisions, tc.next)
			st, err := c.Status(0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.verdict == "WORKING" && (st.IdleCheck.Until.IsZero() || st.State != "watching") {
				t.Fatalf("after WORKING: state %s, check %+v", st.State, st.IdleCheck)
			}
		})
	}
}
