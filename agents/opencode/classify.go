package opencode

import (
	"strings"
	"unicode"

	"github.com/codeman-dev/codeman/respawn"
)

// Classify reads a rendered OpenCode screen.
func (a *Agent) Classify(s respawn.Screen) respawn.ScreenFacts {
	l := readLayout(s.Lines)
	c := classifier{l: &l, f: respawn.ScreenFacts{Tokens: -1}}
	if c.decidePermission() || c.decideQuestion() {
		c.f.Content = respawn.HashRows(l.rows)
		return c.f
	}
	if l.composer >= 0 && l.state != "" {
		c.f.PromptBox, c.f.Input = true, l.text()
		c.f.Content = respawn.HashRows(append(l.rows[:l.input:l.input], c.f.Input))
		if isWorkingRow(l.state) {
			c.f.Working = true
			c.evidence("status_row", l.state)
		} else {
			c.decideTurn()
		}
	}
	return c.f
}

type classifier struct {
	l *layout
	f respawn.ScreenFacts
}

func (c *classifier) evidence(name, row string) {
	c.f.Evidence = append(c.f.Evidence, name+": "+strings.TrimSpace(row))
}

// The permission prompt's marks (docs/opencode.md, "Permission prompts").
const (
	permissionTitle = "△ Permission required"
	permissionKeys  = "enter confirm"
)

// decidePermission finds the permission prompt, which replaces the
// composer and the state row: its title and, lower, the row of its
// choices ("Allow once   Allow always   Reject … enter confirm"). Enter
// there approves, so it is a person's to answer. Which choice is
// highlighted shows only in colour, so its options are not offered for
// an answer from afar.
func (c *classifier) decidePermission() bool {
	l := c.l
	from := max(l.footer, 0)
	title := -1
	for r := from; r <= l.last; r++ {
		if _, t, ok := barRow(l.rows[r]); ok && t == permissionTitle {
			title = r
		}
	}
	if title < 0 {
		return false
	}
	for _, row := range l.rows[title+1 : l.last+1] {
		if strings.Contains(row, "Allow once") && strings.Contains(row, permissionKeys) {
			c.f.Permission = true
			c.f.BlockerText = c.permissionText(title)
			c.evidence("permission", permissionTitle+": "+c.f.BlockerText)
			return true
		}
	}
	return false
}

// questionKeys ends the question tool's form, which takes the composer's
// place: the question, numbered options with their descriptions, "Type
// your own answer" (docs/opencode.md, "The question tool").
const questionKeys = "↑↓ select  enter submit  esc dismiss"

// decideQuestion finds the question tool's form below the newest turn
// footer. Which option is highlighted shows only in colour, so its
// options are not offered for an answer from afar either.
func (c *classifier) decideQuestion() bool {
	l := c.l
	for r := l.last; r > max(l.footer, 0); r-- {
		if _, t, ok := barRow(l.rows[r]); ok && t == questionKeys {
			c.f.Question = true
			for _, row := range l.rows[max(l.footer, 0)+1 : r] {
				if _, t, ok := barRow(row); ok && t != "" {
					c.f.BlockerText = t
					break
				}
			}
			c.evidence("question", c.f.BlockerText)
			return true
		}
	}
	return false
}

// permissionText is what the prompt asks about: the command ("$ sleep 6;
// …") or the file ("→ Edit notes.txt"), else its kind ("# Shell command").
func (c *classifier) permissionText(title int) string {
	kind := ""
	for _, row := range c.l.rows[title+1 : c.l.last+1] {
		_, t, ok := barRow(row)
		switch {
		case !ok || t == "":
		case strings.HasPrefix(t, "$ "), strings.HasPrefix(t, "→ "):
			return t
		case kind == "":
			kind = t
		}
	}
	return kind
}

// decideTurn reads the newest turn footer while nothing works: with its
// duration ("▣  Build · … · 7.7s") the turn ended well; without one, and
// with a "┃" block above it, the turn ended on the error that block
// shows. "· interrupted" is an interrupt.
func (c *classifier) decideTurn() {
	l := c.l
	if l.footer < 0 {
		return
	}
	row := strings.TrimSpace(l.rows[l.footer])
	_, suffix, _ := strings.Cut(strings.TrimPrefix(row, turnFooter), " · ")
	_, suffix, _ = strings.Cut(suffix, " · ")
	switch {
	case suffix == "interrupted":
		c.evidence("interrupted", row)
	case suffix != "" && unicode.IsDigit(rune(suffix[0])):
		c.f.Completion = true
		c.evidence("turn_over", row)
	case suffix == "":
		msg := c.errorAbove(l.footer)
		switch {
		case msg == "":
		case isUsageLimit(msg):
			c.f.UsageLimit = msg
			c.evidence("usage_limit", msg)
		default:
			c.f.APIError = msg
			c.evidence("api_error", msg)
		}
	}
}

// errorAbove returns the text of the "┃" block right above row r, the
// last thing a failed turn shows, unless it is a tool's block.
func (c *classifier) errorAbove(r int) string {
	rows := c.l.rows
	end := r - 1
	for end >= 0 && isBlank(rows[end]) {
		end--
	}
	var parts []string
	for ; end >= 0; end-- {
		_, t, ok := barRow(rows[end])
		if !ok {
			break
		}
		if t != "" {
			parts = append([]string{t}, parts...)
		}
	}
	if len(parts) == 0 || isToolRow(parts[0]) {
		return ""
	}
	return strings.Join(parts, " ")
}

// isToolRow reports the first row of a tool's block: "$ sleep 6", "#
// Wrote notes.txt", "→ Edit …", or a running tool's braille spinner.
func isToolRow(t string) bool {
	if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "→ ") || strings.HasPrefix(t, "← ") {
		return true
	}
	r := []rune(t)
	return len(r) > 1 && r[0] >= 0x2800 && r[0] <= 0x28ff && r[1] == ' '
}

// sidebarColumn is where a row's text starts when it is only the
// sidebar's (the title, "Context", "LSP" beside the transcript): the
// transcript's own text starts within a few columns of the left edge.
const sidebarColumn = 40

// isBlank reports a row with nothing of the transcript's: empty, or only
// the sidebar's text.
func isBlank(row string) bool {
	return len(row)-len(strings.TrimLeft(row, " ")) >= sidebarColumn || strings.TrimSpace(row) == ""
}
