package e2e

import (
	"regexp"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
)

// vimInsertWorking is a spinner row above the prompt box and vim's INSERT
// indicator under it: in INSERT mode the busy footer has no "esc to
// interrupt", Esc being vim's.
var vimInsertWorking = regexp.MustCompile(`(?m)^\S \w+….*$(?s:.*)^  -- INSERT --`)

// With Claude Code's vim key bindings, a person presses Esc while Claude
// works: that does not interrupt, it leaves the prompt box in NORMAL mode,
// which shows no indicator, and letters typed there are vim commands. When
// the turn ends codeman presses i, sees INSERT, and types the update
// prompt; Claude receives each step of the cycle exactly as configured.
func TestVim_UpdateTypedIntoNormalMode(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{ClaudeJSON: map[string]any{"editorMode": "vim"}}, r.hookWrapper())
	const work = "tidy the changelog"
	answerCycle(c.API())
	// Long enough that the turn still runs after Esc on a loaded machine,
	// where the INSERT-mode screen may be seen seconds into the turn.
	c.API().Handle(work, fakeapi.Reply{Delay: 12 * time.Second, Text: "The changelog is tidy."})

	c.waitStartupHints()
	r.attach(c, "")
	c.Type(work)
	c.WaitFor(clitest.Matches(vimInsertWorking), "Claude working, the box in INSERT mode", 10*time.Second)
	c.SendKeys("Escape")
	c.WaitFor(claudetest.Busy, "NORMAL mode (no indicator) while Claude works", 5*time.Second)

	update := c.waitRequest(stepIs(stepUpdate), "the update prompt", cycleTimeout)
	if update.LastUserText != updatePrompt {
		t.Errorf("the update prompt reached the model as %q, want %q", update.LastUserText, updatePrompt)
	}
	kickstart := c.waitRequest(stepIs(stepKickstart), "the kickstart prompt", cycleTimeout)
	if kickstart.LastUserText != kickstartPrompt {
		t.Errorf("the kickstart prompt reached the model as %q, want %q", kickstart.LastUserText, kickstartPrompt)
	}
	c.checkSteps(stepUpdate, stepInit, stepKickstart)
	c.checkTimeline()
}
