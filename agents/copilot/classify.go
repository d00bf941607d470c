package copilot

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// Classify reads a rendered Copilot screen.
func (a *Agent) Classify(s respawn.Screen) respawn.ScreenFacts {
	l := readLayout(s.Lines)
	c := classifier{l: &l, f: respawn.ScreenFacts{Tokens: -1}}
	switch {
	case l.dialog != nil:
		c.decideDialog()
	case l.box >= 0:
		c.f.PromptBox, c.f.Input = true, l.input()
		c.decideFooter()
	default:
		c.decideBare()
	}
	c.decideTurn()
	c.f.Content = l.content()
	return c.f
}

type classifier struct {
	l *layout
	f respawn.ScreenFacts
}

func (c *classifier) evidence(name, row string) {
	c.f.Evidence = append(c.f.Evidence, name+": "+strings.TrimSpace(row))
}

// The dialogs Copilot names by their title (docs/copilot.md, "Dialogs").
const (
	titleQuestion = "Copilot needs information."
	titlePlan     = "Plan Ready for Review"
	titleTrust    = "Confirm folder trust"
	titleRewind   = "Rewind to a previous point"
	// acceptPlan begins the plan approval's option that runs the plan
	// with every permission still asked: the one codeman may take.
	// "… in Autopilot execution mode" would answer questions and
	// permissions by itself.
	acceptPlan = "Accept plan and continue in Interactive execution mode"
)

// decideDialog names the dialog that replaced box and footer. Every
// dialog but an accepting plan approval is a person's to answer.
func (c *classifier) decideDialog() {
	rows := c.l.dialog
	title := firstText(rows)
	switch {
	case title == titleQuestion:
		c.f.Question = true
		c.f.BlockerText = nextText(rows, title)
		c.evidence("question", title)
		c.readQuestion(rows)
	case title == titlePlan:
		c.readPlan(rows)
	case title == titleTrust:
		c.dialogNamed("folder_trust", title)
	case title == titleRewind:
		// Enter there rewinds the conversation.
		c.dialogNamed("rewind", title)
	default:
		if q := permissionQuestion(rows); q != "" {
			c.f.Permission, c.f.BlockerText = true, q
			c.evidence("permission", q)
			c.readPermission(rows, title)
			return
		}
		c.dialogNamed("dialog", title)
	}
}

func (c *classifier) dialogNamed(name, row string) {
	c.f.Dialog, c.f.DialogName, c.f.BlockerText = true, name, strings.TrimSpace(row)
	c.evidence(name, row)
}

// readPlan reads the plan approval: codeman's to accept only while the
// selector is on the option that keeps Manual Approval.
func (c *classifier) readPlan(rows []string) {
	options, selected, ok := respawn.ReadOptions(rows, selector)
	if ok && strings.HasPrefix(options[selected], acceptPlan) {
		c.f.PlanMenu = true
		c.evidence("plan_menu", titlePlan)
		return
	}
	c.dialogNamed("plan_menu", titlePlan)
	if ok {
		c.f.Ask = respawn.Ask{Kind: respawn.NeedMenu, Text: titlePlan, Options: options, Selected: selected}
	}
}

// permissionQuestion returns the row of a permission prompt that asks
// ("Do you want to run this command?", "Do you want to create …?"), ""
// when the dialog has none.
func permissionQuestion(rows []string) string {
	for _, row := range rows {
		if t := strings.TrimSpace(row); strings.HasPrefix(t, "Do you want to ") && strings.HasSuffix(t, "?") {
			return t
		}
	}
	return ""
}

// decideFooter reads the state row under the box, and says when Copilot
// runs in Autopilot mode, where it answers its own questions and
// permission prompts: codeman adds no answer of its own either way.
func (c *classifier) decideFooter() {
	if isWorkingRow(c.l.footer) {
		c.f.Working = true
		c.evidence("status_row", c.l.footer)
	}
	if footerMode(c.l.footer) == "Autopilot" {
		c.evidence("autopilot", "Copilot answers its own questions and permission prompts in Autopilot mode")
	}
}

// footerMode returns the execution mode an idle footer names
// ("Interactive", "Plan", "Autopilot"), "" when it names none.
func footerMode(footer string) string {
	footer = strings.TrimPrefix(footer, "← open sidebar · ")
	mode, _, _ := strings.Cut(footer, " · ")
	switch mode {
	case "Interactive", "Plan", "Autopilot":
		return mode
	}
	return ""
}

// decideBare reads a screen with neither box nor dialog: another view
// (the Sessions tab, whose last row says how to leave it), the shell
// after Copilot exited, or a frame half drawn.
func (c *classifier) decideBare() {
	if c.l.last < 0 {
		return
	}
	row := strings.TrimSpace(c.l.rows[c.l.last])
	lower := strings.ToLower(row)
	if strings.Contains(lower, "enter") && strings.Contains(lower, "esc") {
		c.dialogNamed("view", row)
	}
}

// isWorkingRow reports the footer of a turn under way:
// "◎ Working esc esc edit prompt", "● Working · 30 B esc esc interrupt",
// or of Copilot still starting ("◉ Loading").
func isWorkingRow(row string) bool {
	glyph, rest, ok := strings.Cut(row, " ")
	return ok && isSpinner(glyph) && (strings.HasPrefix(rest, "Working") || strings.HasPrefix(rest, "Loading"))
}

func isSpinner(glyph string) bool {
	switch glyph {
	case "○", "◎", "◉", "●":
		return true
	}
	return false
}

// decideTurn reads the latest turn in the transcript: its failure row
// (a usage limit or an API error) or, with the idle footer, its end.
func (c *classifier) decideTurn() {
	l := c.l
	for r := l.bodyEnd - 1; r > l.lastEcho; r-- {
		if !strings.HasPrefix(l.rows[r], " "+failMark) {
			continue
		}
		msg := failureMessage(l.rows, r)
		switch {
		case isUsageLimit(msg):
			c.f.UsageLimit = msg
			c.evidence("usage_limit", l.rows[r])
			return
		case isTurnFailure(msg):
			c.f.APIError = msg
			c.evidence("api_error", l.rows[r])
			return
		}
	}
	if c.f.PromptBox && !c.f.Working && l.lastEcho >= 0 && c.f.APIError == "" && c.f.UsageLimit == "" {
		for r := l.bodyEnd - 1; r > l.lastEcho; r-- {
			if strings.HasPrefix(l.rows[r], " "+replyMark) {
				if !isNotice(l.rows[r]) {
					c.f.Completion = true
					c.evidence("turn_over", l.rows[r])
				}
				return
			}
		}
	}
}

// notices are "● " rows that are no reply: the newest one says the turn
// did not end with an answer (an interrupt), or nothing of a turn.
var notices = []string{"Operation cancelled by user", "Tip: ", "Started a ", "MCP Servers "}

func isNotice(row string) bool {
	t := strings.TrimPrefix(strings.TrimSpace(row), strings.TrimSpace(replyMark))
	for _, n := range notices {
		if strings.HasPrefix(strings.TrimSpace(t), n) {
			return true
		}
	}
	return false
}

// failureMessage joins a "✗ " row with the rows it wrapped onto, which are
// indented under its text.
func failureMessage(rows []string, r int) string {
	parts := []string{strings.TrimPrefix(strings.TrimSpace(rows[r]), strings.TrimSpace(failMark))}
	for _, row := range rows[r+1:] {
		if !strings.HasPrefix(row, "   ") || strings.TrimSpace(row) == "" {
			break
		}
		parts = append(parts, strings.TrimSpace(row))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// isTurnFailure reports a failure row that ended the turn: the model
// could not be reached. A failed tool call ("✗ Shell … Operation aborted
// by user", "✗ Read missing.txt Path does not exist") is the turn's
// business.
func isTurnFailure(msg string) bool {
	for _, p := range turnFailures {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

var turnFailures = []string{
	"Failed to get response from the AI model",
	"Authentication failed with provider",
	"You must be logged in to send messages",
}

// content hashes the transcript and the box, leaving out the footer,
// whose spinner redraws by itself.
func (l *layout) content() uint64 {
	end := l.bodyEnd
	if l.box >= 0 {
		end = l.boxEnd
	} else if l.dialog != nil {
		end = l.last + 1
	}
	return respawn.HashRows(l.rows[:end])
}

// firstText returns the first non-blank row, trimmed.
func firstText(rows []string) string {
	for _, row := range rows {
		if t := strings.TrimSpace(row); t != "" && !isRule(t) {
			return t
		}
	}
	return ""
}

// nextText returns the first non-blank row after the one that reads
// after, trimmed.
func nextText(rows []string, after string) string {
	seen := false
	for _, row := range rows {
		t := strings.TrimSpace(row)
		switch {
		case t == after && !seen:
			seen = true
		case seen && t != "" && !isRule(t):
			return t
		}
	}
	return after
}
