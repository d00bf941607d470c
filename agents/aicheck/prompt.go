package aicheck

import (
	"crypto/rand"
	_ "embed"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

var (
	//go:embed prompts/idle.txt
	idlePrompt string
	//go:embed prompts/plan.txt
	planPrompt string
	//go:embed prompts/codex-idle.txt
	codexIdlePrompt string
	//go:embed prompts/codex-plan.txt
	codexPlanPrompt string
	//go:embed prompts/copilot-idle.txt
	copilotIdlePrompt string
	//go:embed prompts/copilot-plan.txt
	copilotPlanPrompt string
	//go:embed prompts/opencode-idle.txt
	openCodeIdlePrompt string
	//go:embed prompts/opencode-plan.txt
	openCodePlanPrompt string
)

// buildPrompt returns the prompt of cli's check of kind over the pane
// text: each CLI's screen has its own signs of work and its own dialogs.
// The text is fenced by lines that carry a random id, so that pane text
// cannot close the fence and pose as instructions.
func buildPrompt(cli *cliSpec, kind respawn.CheckKind, text string) string {
	id := rand.Text()
	template := cli.idlePrompt
	if kind == respawn.PlanCheck {
		template = cli.planPrompt
	}
	// A Replacer does not rescan what it inserted, so placeholders inside
	// the pane text stay as they are.
	return strings.NewReplacer(
		"{{OPEN}}", "<<<TERMINAL CAPTURE "+id+">>>",
		"{{CLOSE}}", "<<<END OF TERMINAL CAPTURE "+id+">>>",
		"{{TEXT}}", cleanText(text, maxTextChars),
	).Replace(template)
}
