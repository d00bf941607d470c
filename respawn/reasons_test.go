package respawn

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// renamedAgent is Claude Code's reader under other names, so that a
// reason's words for the agent can be told from the core's.
type renamedAgent struct{ Agent }

func (renamedAgent) Label() string             { return "Robot" }
func (renamedAgent) AutoContinueLabel() string { return "Robot's own resume" }

// Every word a reason has for the agent comes from the agent: its Label,
// and what it calls its own continue at a usage limit.
func TestCore_ReasonsNameTheAgent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limited bool // the turn ended on a usage limit whose continue is armed
		play    func(h *harness)
		want    []string
	}{
		{"background", false, func(h *harness) {
			h.hook(HookPromptSubmitted)
			h.work(time.Second)
			h.hook(HookStop, func(k *Hook) { k.Background = 2 })
		}, []string{"Stop with 2 background task(s) running: Robot goes on when they report"}},
		{"armed_then_lost", true, func(h *harness) {
			advanceTo(h, limitReset)
			h.draw(claudescreen.Armed(claudescreen.ArmedShortly))
			advanceTo(h, limitReset.Add(autoContinueGrace+time.Second))
		}, []string{"usage limit over, but Robot's own resume is armed", "Robot's own resume is still armed"}},
		{"fired_on_screen", true, func(h *harness) {
			advanceTo(h, limitReset.Add(2*time.Second))
			h.draw(claudescreen.AutoContinuedTurn())
		}, []string{"usage limit over: Robot continued by itself (screen shows Robot's own resume)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newAgentHarness(t, testConfig(), renamedAgent{claudeReader}, idleScreen())
			if tc.limited {
				h.work(5 * time.Second)
				h.draw(claudescreen.Armed(claudescreen.ArmedAt))
				h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
				h.advance(time.Minute)
			}
			tc.play(h)
			for _, want := range tc.want {
				h.wantDecision(want)
			}
			for _, d := range h.log {
				if strings.Contains(d.String(), "Claude") {
					t.Errorf("a reason names Claude, not the agent: %s", d)
				}
			}
		})
	}
}
