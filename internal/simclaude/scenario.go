package simclaude

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// scenario is how a turn ends, chosen by a keyword in its prompt.
type scenario int

const (
	scenarioOrdinary scenario = iota
	scenarioLong
	scenarioPlan
	scenarioQuestion
	scenarioPermission
	scenarioLimit
	scenarioError
	scenarioBackground
)

// scenarioKeywords in priority order: the first keyword found wins.
var scenarioKeywords = []struct {
	word string
	s    scenario
}{
	{"limit", scenarioLimit},
	{"error", scenarioError},
	{"permission", scenarioPermission},
	{"question", scenarioQuestion},
	{"plan", scenarioPlan},
	{"background", scenarioBackground},
	{"long", scenarioLong},
}

// pickScenario finds a keyword as a whole word, in any case. While a usage
// limit lasts every turn hits it again.
func pickScenario(prompt string, limited bool) scenario {
	if limited {
		return scenarioLimit
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words[w] = true
	}
	for _, k := range scenarioKeywords {
		if words[k.word] {
			return k.s
		}
	}
	return scenarioOrdinary
}

// scenarioSteps is the script of a turn.
func (m *model) scenarioSteps(s scenario, prompt string) []step {
	w := m.cfg.Work
	switch {
	case m.copilot():
		return m.copilotSteps(m.copilotScenario(s), prompt)
	case m.opencode():
		return m.opencodeSteps(opencodeScenario(s), prompt)
	}
	if m.codex() {
		s = codexScenario(s)
	}
	switch s {
	case scenarioLong:
		return m.ordinarySteps(m.cfg.Long, prompt)
	case scenarioPlan:
		return []step{{after: w, run: (*model).openPlan}}
	case scenarioQuestion:
		return []step{{after: w, run: (*model).openQuestion}}
	case scenarioPermission:
		return []step{{after: w, run: (*model).openPermission}}
	case scenarioLimit:
		return []step{{after: w / 3, run: (*model).hitLimit}}
	case scenarioError:
		return []step{{after: w / 2, run: (*model).apiError}}
	case scenarioBackground:
		return m.backgroundSteps(w)
	}
	return m.ordinarySteps(w, prompt)
}

// ordinarySteps work with one Bash call, then reply and finish.
func (m *model) ordinarySteps(work time.Duration, prompt string) []step {
	steps := m.bashSteps(work * 2 / 5)
	steps = append(steps, replySteps(max(work*3/5-toolRun, 0),
		"I checked the working tree and took care of it:",
		quoteFirstLine(prompt))...)
	return append(steps, step{after: streamGap, run: finishTurn})
}

// quoteFirstLine quotes the first line of a prompt, cut to 80 characters.
func quoteFirstLine(prompt string) string {
	first, _, _ := strings.Cut(prompt, "\n")
	if r := []rune(first); len(r) > 80 {
		first = string(r[:80]) + "…"
	}
	return "“" + first + "”"
}

// apiError ends the turn on an HTTP 529 like capture 47: no completion line.
func (m *model) apiError(now time.Time) {
	if m.codex() {
		m.codexAPIError(now)
		return
	}
	m.items = append(m.items, item{lines: []line{errorLine(apiError529)}})
	m.hookStopFailure("server_error", apiError529)
	m.resend = true
	m.endTurn(OutcomeError, now)
}

// initProject runs /init: a Write of CLAUDE.md, shown on screen only.
func (m *model) initProject(command string, announce bool, now time.Time) {
	m.items = append(m.items, promptEcho(command))
	promptID := newUUID(m.rng)
	if announce {
		m.hookUserPromptSubmit(promptID, command)
	}
	m.hookPromptExpansion(promptID, "/init", strings.TrimSpace(strings.TrimPrefix(command, "/init")))
	path := m.cfg.Cwd + "/CLAUDE.md"
	content := strings.Join(claudeMDLines, "\n") + "\n"
	call := toolCall{
		name:         "Write",
		id:           newToolUseID(m.rng),
		input:        object{{"file_path", path}, {"content", content}},
		response:     object{{"type", "create"}, {"filePath", path}, {"content", content}},
		responseText: "File created successfully at: " + path,
	}
	w := m.cfg.Work
	steps := []step{
		{after: w, run: func(m *model, _ time.Time) {
			m.streamLine("I'll create CLAUDE.md.")
			m.hookPreToolUse(call)
		}},
		{after: toolRun, run: func(m *model, _ time.Time) {
			m.items = append(m.items, writeItem(claudeMDLines))
			m.hookPostToolUse(call, int(toolRun/time.Millisecond))
			m.hookPostToolBatch(call)
			m.newReply()
		}},
	}
	steps = append(steps, replySteps(w/2, "Write result: File created successfully at: "+path+
		" (file state is current in your context — no need to Read it back)")...)
	steps = append(steps, step{after: streamGap, run: finishTurn})
	m.beginTurn(command, promptID, now, steps)
}

// writeItem is "● Write(CLAUDE.md)" with the numbered lines written.
func writeItem(lines []string) item {
	it := item{lines: []line{
		toolHeader("Write", "CLAUDE.md"),
		resultLine(0, "Wrote "+bold(strconv.Itoa(len(lines)))+" lines to "+bold("CLAUDE.md")),
	}}
	for i, l := range lines {
		it.lines = append(it.lines, raw("     "+dim(" "+strconv.Itoa(i+1)+" ")+l))
	}
	return it
}

// compact runs /compact: no Stop and no completion line, like capture 51.
func (m *model) compact(command string, now time.Time) {
	m.items = append(m.items, promptEcho(command))
	echo := len(m.items) - 1
	m.lastPromptID = newUUID(m.rng)
	m.hookPreCompact()
	m.beginTurn(command, m.lastPromptID, now, []step{{after: m.cfg.Work, run: func(m *model, now time.Time) {
		m.items[echo].lines = append(m.items[echo].lines, resultLine(0, "Compacted (ctrl+o to see full summary)"))
		m.hookSubagentStop(newAgentID(m.rng), "", "Summary written.", nil)
		m.hookSessionStart("compact", true)
		m.hookPostCompact()
		m.endTurn(OutcomeCompacted, now)
	}}})
}
