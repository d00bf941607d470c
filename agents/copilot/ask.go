package copilot

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// feedbackOption begins a permission prompt's last option, a text field:
// its digit only moves the selector there, and what is typed next is the
// feedback sent with the refusal.
const feedbackOption = "No, and tell Copilot what to do differently"

// otherAnswer is a question's option that opens a text field.
const otherAnswer = "Other (type your answer)"

// readPermission reads a permission prompt's options, for a person's
// answer (respawn.Ask): what it asks is the command in the prompt's inner
// box, else its title (the call's description or "Create file").
func (c *classifier) readPermission(rows []string, title string) {
	options, selected, ok := respawn.ReadOptions(rows, selector)
	if !ok {
		return
	}
	ask := respawn.Ask{Kind: respawn.NeedPermission, Text: title, Options: options, Selected: selected}
	for _, row := range rows {
		if inner, found := strings.CutPrefix(strings.TrimSpace(row), border+" "); found {
			ask.Text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(inner), border))
			break
		}
	}
	for i, o := range options {
		if strings.HasPrefix(o, feedbackOption) {
			ask.Typed = append(ask.Typed, i)
		}
	}
	c.f.Ask = ask
}

// readQuestion reads the question dialog's choices: unnumbered rows, the
// selected one " ❯ PostgreSQL", the others indented to its label
// ("   SQLite"). The field's label above them ("Database:") is indented
// less.
func (c *classifier) readQuestion(rows []string) {
	sel := -1
	for i, row := range rows {
		if strings.HasPrefix(row, " "+selector+" ") {
			sel = i
			break
		}
	}
	if sel < 0 {
		return
	}
	const indent = "   "
	isChoice := func(row string) bool {
		return strings.HasPrefix(row, indent) && strings.TrimSpace(row) != ""
	}
	first := sel
	for first > 0 && isChoice(rows[first-1]) {
		first--
	}
	var options []string
	ask := respawn.Ask{Kind: respawn.NeedQuestion, Text: c.f.BlockerText, Selected: sel - first}
	for i := first; i < len(rows) && (i == sel || isChoice(rows[i])); i++ {
		label := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rows[i]), selector))
		if label == otherAnswer {
			ask.Typed = append(ask.Typed, len(options))
		}
		options = append(options, label)
	}
	if len(options) < 2 {
		return
	}
	ask.Options = options
	c.f.Ask = ask
}
