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
)

// buildPrompt returns the prompt of a check of kind over the pane text.
// The text is fenced by lines that carry a random id, so that pane text
// cannot close the fence and pose as instructions.
func buildPrompt(kind respawn.CheckKind, text string) string {
	id := rand.Text()
	template := idlePrompt
	if kind == respawn.PlanCheck {
		template = planPrompt
	}
	// A Replacer does not rescan what it inserted, so placeholders inside
	// the pane text stay as they are.
	return strings.NewReplacer(
		"{{OPEN}}", "<<<TERMINAL CAPTURE "+id+">>>",
		"{{CLOSE}}", "<<<END OF TERMINAL CAPTURE "+id+">>>",
		"{{TEXT}}", cleanText(text, maxTextChars),
	).Replace(template)
}
