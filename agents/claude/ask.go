package claude

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// selector marks the option under the selector in Claude Code's menus.
const selector = "❯"

// textOptions are the options of a question that open a text box or a
// chat instead of choosing: a person answers them at the keyboard.
var textOptions = []string{"Type something.", "Chat about this"}

// readAsk reads the options of the question, permission prompt or plan
// menu on screen, for a person's answer (respawn.Ask).
func (c *classifier) readAsk(kind respawn.NeedKind, text string) {
	options, selected, ok := respawn.ReadOptions(c.l.rows, selector)
	if !ok || multiSelect(options) {
		return
	}
	ask := respawn.Ask{Kind: kind, Text: text, Options: options, Selected: selected}
	for i, o := range options {
		for _, t := range textOptions {
			if o == t {
				ask.Typed = append(ask.Typed, i)
			}
		}
	}
	c.f.Ask = ask
}

// multiSelect reports a question whose options are checkboxes ("[ ]
// Logging"): Enter ticks one rather than answering, so a person answers
// it at the keyboard.
func multiSelect(options []string) bool {
	for _, o := range options {
		if strings.HasPrefix(o, "[ ] ") || strings.HasPrefix(o, "[✔] ") {
			return true
		}
	}
	return false
}

// permissionText is what a permission prompt asks for: the command or
// the edit between its dashed rules, else the prompt's own row.
func (c *classifier) permissionText(h hit) string {
	var between []string
	open := false
	for r := h.row; r >= 0 && r > h.row-40; r-- {
		t := strings.TrimSpace(c.l.rows[r])
		if strings.HasPrefix(t, "╌╌╌") {
			if open {
				break
			}
			open = true
			continue
		}
		if open && t != "" {
			between = append([]string{t}, between...)
		}
	}
	if len(between) == 0 || !open {
		return h.text
	}
	return strings.Join(between, "\n")
}
