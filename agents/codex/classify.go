package codex

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// dialogTitles are the rows that name a dialog replacing the composer
// (docs/codex.md), each with the name its evidence carries. A command or
// edit approval is told apart as a permission prompt (isApproval).
var dialogTitles = []struct{ text, name string }{
	{"Approaching rate limits", "rate_limit_menu"}, // Enter switches the model
	{"Hooks need review", "hooks_review"},
	{"Trust this folder?", "folder_trust"},
	{"Folder access", "folder_trust"},
	{"Try new model", "model_migration"},
	{"Use existing model", "model_migration"},
	{"Warnings · ", "warnings"}, // the F2 warnings view
	{"esc dismiss & close", "warnings"},
	{"Browsing transcript", "transcript_browsing"}, // Enter rewinds the conversation
}

// Classify reads a rendered Codex screen.
func (a *Agent) Classify(s respawn.Screen) respawn.ScreenFacts {
	l := readLayout(s.Lines)
	c := classifier{l: &l, f: respawn.ScreenFacts{Tokens: -1}}
	c.decideDialogs()
	c.decideWorking()
	if !c.f.Permission && !c.f.Dialog && l.composer >= 0 {
		c.f.PromptBox, c.f.Input = true, l.input()
		c.decideCompletion()
	}
	c.decideFailures()
	return c.f
}

type classifier struct {
	l *layout
	f respawn.ScreenFacts
}

func (c *classifier) evidence(name, row string) {
	c.f.Evidence = append(c.f.Evidence, name+": "+strings.TrimSpace(row))
}

// decideDialogs finds what replaces the composer: an approval prompt, a
// known dialog, or any other menu (a selected "› 1." option and a row
// that names Enter and Esc). With the composer on screen only the footer
// is read, where transcript browsing says so.
func (c *classifier) decideDialogs() {
	l := c.l
	rows := l.rows
	if l.composer >= 0 {
		rows = l.footer()
	} else if l.lastEcho >= 0 {
		rows = l.rows[l.lastEcho+1:]
	}
	for i, row := range rows {
		if t := strings.TrimSpace(row); isApproval(t, rows[i+1:]) {
			c.f.Permission, c.f.BlockerText = true, t
			c.evidence("approval", t)
			c.readAsk(t, rows[i+1:])
			return
		}
	}
	for _, row := range rows {
		for _, d := range dialogTitles {
			if strings.Contains(row, d.text) {
				c.f.Dialog, c.f.DialogName, c.f.BlockerText = true, d.name, strings.TrimSpace(row)
				c.evidence(d.name, row)
				return
			}
		}
	}
	if l.composer >= 0 {
		return
	}
	for i, row := range rows {
		if isOption(row) && hasMenuHint(rows[i+1:]) {
			c.f.Dialog, c.f.BlockerText = true, strings.TrimSpace(row)
			c.evidence("menu", row)
			return
		}
	}
}

// isApproval reports the title of an approval prompt ("Would you like to
// run the following command?", "… make the following edits?", "… grant
// these permissions?") with a selected option under it.
func isApproval(title string, below []string) bool {
	if !strings.HasPrefix(title, "Would you like to ") || !strings.HasSuffix(title, "?") {
		return false
	}
	for _, row := range below {
		if isOption(row) {
			return true
		}
	}
	return false
}

// hasMenuHint reports a row that tells how to answer a menu: "enter select
// · esc back", "Press enter to confirm or esc to cancel".
func hasMenuHint(rows []string) bool {
	for _, row := range rows {
		lower := strings.ToLower(row)
		if strings.Contains(lower, "enter") && strings.Contains(lower, "esc") {
			return true
		}
	}
	return false
}

// decideWorking looks for the status row among the rows just above the
// composer, or at the bottom of a screen without one.
func (c *classifier) decideWorking() {
	l := c.l
	rows := l.nonBlankAbove(l.bodyEnd, statusReach)
	if l.composer < 0 {
		rows = l.nonBlankAbove(len(l.rows), bottomRows)
	}
	for _, r := range rows {
		if isStatusRow(l.rows[r]) {
			c.f.Working = true
			c.evidence("status_row", l.rows[r])
			return
		}
	}
}

// decideCompletion: the newest "Worked for" row of the latest turn, with
// no status row and the composer free of dialogs.
func (c *classifier) decideCompletion() {
	if c.f.Working {
		return
	}
	l := c.l
	for r := l.bodyEnd - 1; r > l.lastEcho; r-- {
		if isCompletion(l.rows[r]) {
			c.f.Completion = true
			c.evidence("completion", l.rows[r])
			return
		}
	}
}

// decideFailures reports the latest turn's "■" message, read across its
// wrapped rows: a usage limit, or an API error unless it is the interrupt
// notice. A finished turn after it makes it history.
func (c *classifier) decideFailures() {
	l := c.l
	for r := l.bodyEnd - 1; r > l.lastEcho; r-- {
		if isCompletion(l.rows[r]) {
			return
		}
		msg, ok := blockMessage(l.rows, r)
		if !ok {
			continue
		}
		switch {
		case isUsageLimit(msg):
			c.f.UsageLimit = msg
			c.evidence("usage_limit", l.rows[r])
		case strings.HasPrefix(msg, "Conversation interrupted"):
			c.evidence("interrupted", l.rows[r])
		default:
			c.f.APIError = msg
			c.evidence("api_error", l.rows[r])
		}
		return
	}
}
