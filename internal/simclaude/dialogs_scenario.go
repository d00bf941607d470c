package simclaude

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// openPlan ends the plan scenario's work with the approval of captures 32/32b.
func (m *model) openPlan(now time.Time) {
	m.streamLine("I'll write the plan.")
	m.newReply()
	m.items = append(m.items, item{lines: []line{
		raw(fg(colorText, "●") + " Updated plan"),
		resultLine(colorDim, "/plan to preview"),
	}})
	m.streamLine("The plan is ready.")
	call := toolCall{
		name:  "ExitPlanMode",
		id:    newToolUseID(m.rng),
		input: object{{"plan", planMarkdown}, {"planFilePath", m.planPath()}},
	}
	m.hookPreToolUse(call)
	m.openDialog(dialogPlan, call, now)
}

func (m *model) planPath() string {
	return filepath.Join(m.home, ".claude", "plans", planSlug+".md")
}

// acceptPlan is option 1 (auto mode) or 2 (manual approval): the plan runs.
func (m *model) acceptPlan(option int, now time.Time) {
	m.closeDialog()
	m.mode = modeManual
	if option == 0 {
		m.mode = modeAuto
	}
	call := m.turn.tool
	call.response = object{{"plan", planMarkdown}, {"isAgent", false}, {"filePath", m.planPath()}}
	call.responseText = planApproved
	m.hookPostToolUse(call, 5)
	m.hookPostToolBatch(call)
	approved := item{lines: []line{
		raw(fg(colorText, "●") + " Approved Claude's plan"),
		resultLine(colorDim, "Plan saved to: ~/.claude/plans/"+planSlug+".md · /plan to edit"),
	}}
	for _, l := range planLines() {
		approved.lines = append(approved.lines, text("     ", 0, l))
	}
	m.items = append(m.items, approved)
	m.newReply()
	steps := replySteps(m.cfg.Work/2, planApproved, "", "I created hello.txt, ran the tests and committed the change.")
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}

// revisePlan is option 3 with feedback: the plan is rejected and Claude
// works on the feedback in the same turn.
func (m *model) revisePlan(feedback string, now time.Time) {
	m.closeDialog()
	m.appendToLast(resultLine(0, "Rejected Claude's plan:"))
	m.appendToLast(planBox()...)
	m.appendToLast(resultLine(colorDim, "Feedback: "+feedback))
	m.newReply()
	steps := replySteps(m.cfg.Work/2, "I'll revise the plan: "+quoteFirstLine(feedback))
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}

// planLines is the plan as the approval screen renders its markdown.
func planLines() []string {
	return []string{"Fake plan: add hello.txt", "", "Steps", "", "1. Create hello.txt with a greeting", "2. Run the tests", "3. Commit the change"}
}

// planBox is the rejected plan in a rounded box (capture 31).
func planBox() []line {
	lines := planLines()
	width := 0
	for _, l := range lines {
		width = max(width, len([]rune(l)))
	}
	out := []line{raw("     ╭" + rule("─", width+2) + "╮")}
	for _, l := range lines {
		out = append(out, raw("     │ "+l+strings.Repeat(" ", width-len([]rune(l)))+" │"))
	}
	return append(out, raw("     ╰"+rule("─", width+2)+"╯"))
}

// questionInput is the AskUserQuestion tool input of capture 21.
func questionInput() object {
	var opts []object
	for _, o := range questionOptions {
		opts = append(opts, object{{"label", o.label}, {"description", o.description}})
	}
	q := object{{"question", questionText}, {"header", questionHeader}, {"options", opts}, {"multiSelect", false}}
	return object{{"questions", []object{q}}}
}

// openQuestion ends the question scenario's work with the picker of capture 21.
func (m *model) openQuestion(now time.Time) {
	call := toolCall{name: "AskUserQuestion", id: newToolUseID(m.rng), input: questionInput()}
	m.hookPreToolUse(call)
	m.openDialog(dialogQuestion, call, now)
}

// answerQuestion records the answer and lets the turn finish (capture 22).
func (m *model) answerQuestion(answer string, now time.Time) {
	m.closeDialog()
	call := m.turn.tool
	answers := object{{questionText, answer}}
	call.input = append(questionInput(), field{"answers", answers}, field{"annotations", object{}})
	call.response = call.input
	result := fmt.Sprintf("Your questions have been answered: %q=%q. You can now continue with these answers in mind.", questionText, answer)
	call.responseText = result
	m.hookPostToolUse(call, 1)
	m.hookPostToolBatch(call)
	m.items = append(m.items, item{lines: []line{
		raw(fg(colorDim, "●") + " Answered Claude's questions:"),
		resultLine(colorDim, "· "+questionText+" → "+answer),
	}})
	m.newReply()
	steps := replySteps(m.cfg.Work/3, "Thanks. AskUserQuestion result: "+result)
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}

// openPermission ends the permission scenario's work with the Bash prompt
// of capture 14.
func (m *model) openPermission(now time.Time) {
	if m.codex() {
		m.openApproval(now)
		return
	}
	m.items = append(m.items, item{lines: []line{
		raw("  " + riskyProgress),
		raw(fg(colorDim, "  ⎿  $ "+riskyCommand)),
	}})
	m.turn.toolItem = len(m.items) - 1
	call := toolCall{
		name:  "Bash",
		id:    newToolUseID(m.rng),
		input: object{{"command", riskyCommand}, {"description", riskyDescription}},
		suggestions: []object{{
			{"type", "addRules"},
			{"rules", []object{{{"toolName", "Bash"}, {"ruleContent", riskyRuleRm}}, {{"toolName", "Bash"}, {"ruleContent", riskyRuleCurl}}}},
			{"behavior", "allow"},
			{"destination", "localSettings"},
		}},
		response: object{
			{"stdout", ""}, {"stderr", ""}, {"interrupted", false},
			{"isImage", false}, {"noOutputExpected", false},
		},
		responseText: "(Bash completed with no output)",
	}
	m.hookPreToolUse(call)
	m.openDialog(dialogPermission, call, now)
}

// allowCommand is option 1, 2 or 3 (3 also switches to auto mode).
func (m *model) allowCommand(option int, now time.Time) {
	m.closeDialog()
	if option == 2 {
		m.mode = modeAuto
	}
	m.items[m.turn.toolItem] = item{lines: []line{collapsedTool("Ran", "1", "shell command")}}
	m.hookPostToolUse(m.turn.tool, 90)
	m.hookPostToolBatch(m.turn.tool)
	m.newReply()
	steps := replySteps(m.cfg.Work/3, "The command finished. Output was:", "", "(Bash completed with no output)")
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}
