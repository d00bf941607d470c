package e2e

import (
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// The cycle scenarios again with the CLI in a window of a GNU screen
// session (the screen on PATH, its display held by a tmux pane as a
// person's terminal would hold it) and codeman attached to the window:
// its hardcopy poller reads the screen, its keys go through screen, and
// the hooks name the window from STY and WINDOW.

// TestCycle_AfterSlowTurn in a screen window: the update prompt, /clear,
// /init and the kickstart prompt after a slowly streamed turn with a Bash
// tool, and nothing typed while it ran.
func TestScreen_ClaudeCycle(t *testing.T) {
	t.Parallel()
	t.Logf("on %s", tmuxtest.Releases())
	cycleAfterSlowTurn(t, true)
}

// TestCodexCycle_AfterSlowTurn in a screen window: the update prompt
// naming AGENTS.md, /new, /init and the kickstart prompt after a slowly
// streamed turn with a command, and nothing typed while it ran.
func TestScreen_CodexCycle(t *testing.T) {
	t.Parallel()
	t.Logf("on %s", tmuxtest.Releases())
	codexCycleAfterSlowTurn(t, true)
}

// TestCopilotCycle_AfterSlowTurn in a screen window, read from the
// screen alone: the update prompt naming .github/copilot-instructions.md,
// /clear, /init and the kickstart prompt after a slowly streamed turn with
// a command, and nothing typed while it ran.
func TestScreen_CopilotCycle(t *testing.T) {
	t.Parallel()
	t.Logf("on %s", tmuxtest.Releases())
	copilotCycleAfterSlowTurn(t, true, false)
}

// TestCopilot_PermissionLeftAloneWithHooks in a screen window: the hooks
// name the window from STY and WINDOW, the permissionRequest hook raises
// the need, and the prompt is left alone.
func TestScreen_CopilotPermissionWithHooks(t *testing.T) {
	t.Parallel()
	t.Logf("on %s", tmuxtest.Releases())
	copilotPermissionLeftAlone(t, true, true)
}
