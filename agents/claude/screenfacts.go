package claude

import (
	"strings"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/respawn"
)

// Classify reads a rendered screen.
func (p *Patterns) Classify(s respawn.Screen) respawn.ScreenFacts {
	l := readLayout(s.Lines)
	c := classifier{l: &l, f: respawn.ScreenFacts{Tokens: -1, PromptBox: l.box, Input: l.input(), Content: l.content()}, passed: -1}
	for _, i := range p.screen {
		c.match(&p.list[i])
	}
	c.decideWorking()
	c.decideTurnEnd()
	c.decideDialogs()
	c.decideAutoContinue()
	c.decideFailures()
	c.f.EditorMode = readEditorMode(&l)
	return c.f
}

// hit is one pattern matching one row.
type hit struct {
	p     *Pattern
	row   int
	text  string // the row without surrounding blanks
	value string // the first group when the pattern has one, else text
}

type classifier struct {
	l    *layout
	f    respawn.ScreenFacts
	hits []hit
	// passed is the row of the notice that Claude Code continued by
	// itself after a usage limit, -1 if none: limit rows above it are
	// history.
	passed int
}

func (c *classifier) match(p *Pattern) {
	for r, row := range c.l.rows {
		if row == "" || !c.l.in(p.where, r) || !strings.Contains(row, p.lit) {
			continue
		}
		m := p.Re.FindStringSubmatch(row)
		if m == nil {
			continue
		}
		h := hit{p: p, row: r, text: strings.TrimSpace(row)}
		h.value = h.text
		if len(m) > 1 && m[1] != "" {
			h.value = strings.TrimSpace(m[1])
		}
		c.hits = append(c.hits, h)
	}
}

func (c *classifier) kind(k PatternKind) []hit {
	var out []hit
	for _, h := range c.hits {
		if h.p.Kind == k {
			out = append(out, h)
		}
	}
	return out
}

func (c *classifier) evidence(hs ...hit) {
	for _, h := range hs {
		c.f.Evidence = append(c.f.Evidence, h.p.Name+": "+h.text)
	}
}

func (c *classifier) decideWorking() {
	work := c.kind(PatternWorking)
	c.f.Working = len(work) > 0
	c.evidence(work...)
	for _, h := range work {
		if h.p.Name == "status_line" {
			c.f.Tokens = firstTokens([]byte(h.text), 0)
			break
		}
	}
}

// decideTurnEnd looks at the newest completion or background-wait row: it
// counts only when no prompt was echoed after it and the footer is idle.
func (c *classifier) decideTurnEnd() {
	var newest *hit
	for i, h := range c.hits {
		k := h.p.Kind
		if (k == PatternCompletion || k == PatternBackgroundWait) && (newest == nil || h.row > newest.row) {
			newest = &c.hits[i]
		}
	}
	if newest == nil || !c.l.box || c.f.Working || newest.row < c.l.lastEcho {
		return
	}
	c.evidence(*newest)
	if newest.p.Kind == PatternCompletion {
		c.f.Completion = true
		return
	}
	c.f.BackgroundWait = 1
	if n, ok := smallInt(newest.value); ok && n > 0 {
		c.f.BackgroundWait = n
	}
}

// decideDialogs sets the dialog facts. A plan menu needs its title and an
// accepting option under the ❯ selector, since codeman answers it with
// Enter; a plan dialog without that is one a person must answer.
func (c *classifier) decideDialogs() {
	questions, permissions := c.kind(PatternQuestion), c.kind(PatternPermission)
	c.f.Question, c.f.Permission = len(questions) > 0, len(permissions) > 0
	c.evidence(questions...)
	c.evidence(permissions...)
	switch {
	case c.f.Question:
		c.f.BlockerText = c.questionText(questions[0])
		c.readAsk(respawn.NeedQuestion, c.f.BlockerText)
		return
	case c.f.Permission:
		c.f.BlockerText = permissions[0].text
		c.readAsk(respawn.NeedPermission, c.permissionText(permissions[0]))
		return
	}
	plans := c.kind(PatternPlanMenu)
	var title, option bool
	for _, h := range plans {
		if strings.Contains(h.text, "❯") {
			option = true
		} else {
			title = true
		}
	}
	if title && option {
		c.f.PlanMenu = true
		c.evidence(plans...)
		c.readAsk(respawn.NeedMenu, plans[0].text)
		return
	}
	others := append(c.kind(PatternDialog), plans...)
	if len(others) > 0 {
		c.f.Dialog, c.f.DialogName, c.f.BlockerText = true, others[0].p.Name, others[0].text
		c.evidence(others...)
	}
}

// questionText returns the question a picker asks: the nearest row above
// the hit that ends with "?", or the hit's own text.
func (c *classifier) questionText(h hit) string {
	for r := h.row; r >= 0 && r > h.row-16; r-- {
		if t := strings.TrimSpace(c.l.rows[r]); strings.HasSuffix(t, "?") && !strings.HasPrefix(t, "❯") {
			return t
		}
	}
	return h.text
}

// decideAutoContinue reads Claude Code's own continue at a usage limit.
// The footer shows its live state while it is armed or stale; otherwise
// the newest notice of the latest turn tells. A "continued" notice makes
// the limit and error rows above it history, and counts as the state only
// when no limit or error row follows it.
func (c *classifier) decideAutoContinue() {
	for r := c.l.footerStart; r < len(c.l.rows) && c.l.box; r++ {
		if a := autoContinueFooter(c.l.rows[r]); a != respawn.AutoContinueNone {
			c.f.AutoContinue = a
			c.f.Evidence = append(c.f.Evidence, "auto_continue_"+a.String()+": "+strings.TrimSpace(c.l.rows[r]))
			return
		}
	}
	for r := c.l.bodyEnd - 1; r > c.l.lastEcho; r-- {
		a := autoContinueNotice(c.l.rows[r])
		if a == respawn.AutoContinueNone {
			continue
		}
		if a == respawn.AutoContinueFired {
			c.passed = r
			for _, h := range c.hits {
				if (h.p.Kind == PatternUsageLimit || h.p.Kind == PatternAPIError) && h.row > r {
					return // the limit or an error came after it
				}
			}
		}
		c.f.AutoContinue = a
		c.f.Evidence = append(c.f.Evidence, "auto_continue_"+a.String()+": "+strings.TrimSpace(c.l.rows[r]))
		return
	}
}

// decideFailures reports the latest turn's API error and usage limit.
func (c *classifier) decideFailures() {
	var errs []hit
	for _, h := range c.kind(PatternAPIError) {
		if h.row > c.passed { // older errors went with the limit Claude Code continued past
			errs = append(errs, h)
		}
	}
	newest := -1
	for _, h := range errs {
		if h.row > newest {
			c.f.APIError, newest = h.value, h.row
		}
	}
	c.evidence(errs...)
	if h, ok := c.usageLimit(); ok {
		c.f.UsageLimit = h.value
		for _, h := range c.kind(PatternUsageLimit) {
			if h.row >= c.passed {
				c.evidence(h)
			}
		}
	}
}

// usageLimit picks the usage-limit row to report: transcript rows before
// the footer, newest first, preferring one whose reset time names its zone
// or date ("resets 10:06pm (UTC)" over the footer's "resets 10:06pm").
func (c *classifier) usageLimit() (hit, bool) {
	var best hit
	found := false
	rank := func(h hit) int {
		r := 0
		if h.row < c.l.bodyEnd {
			r += 2
		}
		if parseReset(h.value).precise() {
			r += 4
		}
		return r
	}
	for _, h := range c.kind(PatternUsageLimit) {
		if h.row < c.passed {
			continue // Claude Code continued past this limit by itself
		}
		if !c.ownLimitRow(h) {
			continue // a reply that quotes a limit
		}
		if !found || rank(h) > rank(best) || rank(h) == rank(best) && h.row > best.row {
			best, found = h, true
		}
	}
	return best, found
}

// limitMarks is the mark Claude Code draws before each of its usage-limit
// messages in the transcript: "⎿" under the prompt for the limit itself,
// "●" for its notice ("● Usage limit reached · …").
var limitMarks = map[string]string{
	"usage_limit_hit":     "⎿",
	"usage_limit_legacy":  "⎿",
	"usage_limit_reached": "●",
}

// ownLimitRow reports whether a usage-limit hit is a row Claude Code drew
// itself rather than text of a reply that quotes one: in the footer, which
// no reply reaches, always; in the transcript, only when the row is Claude's
// mark for it and then the message. A reply's rows start with its own "●"
// or with two spaces, and a quote inside a sentence starts elsewhere. (A
// reply can still draw the very row; the Stop hook tells it from a limit,
// respawn.Core.limitQuoted.) A user's pattern is taken as written.
func (c *classifier) ownLimitRow(h hit) bool {
	mark, builtin := limitMarks[h.p.Name]
	if !builtin || h.row >= c.l.footerStart {
		return true
	}
	rest, ok := strings.CutPrefix(h.text, mark)
	return ok && strings.TrimSpace(rest) == h.value
}

// smallInt parses a short decimal number.
func smallInt(s string) (int, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// region names the rows a screen pattern is tried on.
type region uint8

const (
	regionDefault      region = iota // the usual rows of the pattern's kind (kindRegion)
	regionBody                       // above the prompt box: transcript, status line, hints
	regionFooter                     // under the prompt box
	regionOutside                    // body and footer
	regionDialog                     // every row, but only while the prompt box is hidden
	regionLatest                     // body rows after the newest prompt echo
	regionLatestFooter               // regionLatest and the footer
)

// kindRegion is where patterns of a kind are looked for, unless a built-in
// pattern says otherwise.
func kindRegion(k PatternKind) region {
	switch k {
	case PatternWorking:
		return regionOutside
	case PatternCompletion, PatternBackgroundWait:
		return regionBody
	case PatternAPIError:
		return regionLatest
	case PatternUsageLimit:
		return regionLatestFooter
	}
	return regionDialog
}

// layout is the structure of a Claude Code screen: the prompt box pinned
// under the transcript, the footer under the box.
type layout struct {
	rows        []string // without trailing blanks
	box         bool     // a prompt box is on screen
	boxTop      int      // its upper rule
	boxBottom   int      // its lower rule
	bodyEnd     int      // rows [0, bodyEnd) are above the box (all rows without one)
	footerStart int      // rows [footerStart, len(rows)) are the footer
	lastEcho    int      // the newest prompt echo ("❯ text") in the body, -1 if none
}

// footerRowsWithoutBox is how many of the last non-blank rows count as the
// footer when no prompt box was found, so that a busy footer is still seen
// on a screen this code does not understand.
const footerRowsWithoutBox = 3

func readLayout(lines []string) layout {
	l := layout{rows: make([]string, len(lines)), lastEcho: -1}
	for i, s := range lines {
		// capture-pane keeps the NO-BREAK SPACE after an empty "❯".
		l.rows[i] = strings.TrimRight(s, " \t\u00a0")
	}
	l.findBox()
	if l.box {
		l.bodyEnd, l.footerStart = l.boxTop, l.boxBottom+1
	} else {
		l.bodyEnd, l.footerStart = len(l.rows), l.lastNonBlank(footerRowsWithoutBox)
	}
	for r := l.bodyEnd - 1; r >= 0; r-- {
		if isPromptEcho(l.rows[r]) {
			l.lastEcho = r
			break
		}
	}
	return l
}

// findBox finds the lowest prompt box: a rule, an input row starting with
// "❯" and a NO-BREAK SPACE, maybe more input rows, a rule. Dialog options
// under a rule use a normal space after "❯" (capture 21), so they are no box.
func (l *layout) findBox() {
	below := -1
	for r := len(l.rows) - 1; r >= 0; r-- {
		if !isRule(l.rows[r]) {
			continue
		}
		if below > r+1 && isInputRow(l.rows[r+1]) {
			if l.otherCLIUnder(below) {
				return
			}
			l.box, l.boxTop, l.boxBottom = true, r, below
			return
		}
		below = r
	}
}

// otherCLIFooter begins the row another CLI draws under a box of the
// same shape: the GitHub Copilot CLI's idle footer and its working row.
// Claude Code draws neither, so a box over one is not Claude Code's, and
// a pane attached as the wrong agent is not typed into as if it were.
var otherCLIFooter = []string{"← open sidebar · ", "○ Working", "◎ Working", "◉ Working", "● Working"}

// otherCLIUnder reports whether the first non-blank row under the rule
// at r is another CLI's footer.
func (l *layout) otherCLIUnder(r int) bool {
	for _, row := range l.rows[r+1:] {
		if t := strings.TrimSpace(row); t != "" {
			for _, p := range otherCLIFooter {
				if strings.HasPrefix(t, p) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func (l *layout) lastNonBlank(k int) int {
	for r := len(l.rows) - 1; r >= 0; r-- {
		if l.rows[r] != "" {
			if k--; k == 0 {
				return r
			}
		}
	}
	return 0
}

func (l *layout) in(where region, r int) bool {
	body := r < l.bodyEnd
	footer := r >= l.footerStart
	latest := body && r > l.lastEcho
	switch where {
	case regionBody:
		return body
	case regionFooter:
		return footer
	case regionOutside:
		return body || footer
	case regionDialog:
		return !l.box
	case regionLatest:
		return latest
	case regionLatestFooter:
		return latest || footer
	}
	return false
}

// content hashes the rows above the footer, and is 0 without a prompt
// box: the footer is then not known.
func (l *layout) content() uint64 {
	if !l.box {
		return 0
	}
	return respawn.HashRows(l.rows[:l.footerStart])
}

// promptPlaceholders are shown dimmed in an empty prompt box; plain text
// capture cannot tell them from typed text (captures 45, 47, 62).
var promptPlaceholders = []string{
	"Resend your message to try again",
	"Once fixed, resend your message",
	"Press up to edit queued messages",
}

// input returns the text in the prompt box, "" when it is empty or shows a
// placeholder.
func (l *layout) input() string {
	if !l.box {
		return ""
	}
	rows := make([]string, 0, l.boxBottom-l.boxTop-1)
	for r := l.boxTop + 1; r < l.boxBottom; r++ {
		rows = append(rows, strings.TrimSpace(strings.TrimPrefix(l.rows[r], "❯")))
	}
	text := strings.TrimSpace(strings.Join(rows, "\n"))
	for _, p := range promptPlaceholders {
		if text == p {
			return ""
		}
	}
	// An empty box may suggest a prompt, dimmed: Try "fix lint errors".
	if strings.HasPrefix(text, `Try "`) && strings.HasSuffix(text, `"`) && !strings.Contains(text, "\n") {
		return ""
	}
	return text
}

func isRule(row string) bool {
	return utf8.RuneCountInString(row) >= 3 && strings.Trim(row, "─") == ""
}

func isInputRow(row string) bool {
	rest, ok := strings.CutPrefix(row, "❯")
	return ok && (rest == "" || strings.HasPrefix(rest, "\u00a0"))
}

// isPromptEcho reports a transcript row that echoes a sent prompt: "❯",
// a normal space, text.
func isPromptEcho(row string) bool {
	rest, ok := strings.CutPrefix(row, "❯ ")
	return ok && strings.TrimSpace(rest) != ""
}
