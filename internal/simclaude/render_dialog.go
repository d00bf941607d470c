package simclaude

import "strconv"

// dialogRows draws the open dialog in place of the prompt box.
func (m *model) dialogRows(width, height int) []string {
	switch m.dialog.kind {
	case dialogPlan:
		return m.planRows(width, height)
	case dialogQuestion:
		return m.questionRows(width)
	}
	return m.permissionRows(width)
}

// permissionRows is the Bash permission prompt of capture 14.
func (m *model) permissionRows(width int) []string {
	labels := []string{
		"Yes",
		"Yes, and don't ask again for " + bold(riskyRuleRm) + " and " + bold(riskyRuleCurl) + " commands in " + bold(m.cfg.Cwd),
		"Yes, and switch to auto mode" + fg(colorDim, " · auto mode handles these prompts for you"),
		"No",
	}
	rows := []string{
		fg(colorAccent, rule("─", width)),
		" " + bold(fg(colorAccent, "Bash command")),
		" " + bold(`Tip: auto mode handles these prompts for you — choose "switch to auto mode" below`),
		" " + fg(colorDim, riskyDescription),
		fg(colorFaint, rule("╌", width)),
		" " + riskyCommand,
		fg(colorFaint, rule("╌", width)),
		" This command requires approval",
		"",
		" Do you want to proceed?",
	}
	for i, l := range labels {
		rows = append(rows, " "+m.optionRow(i, l, ". "))
	}
	return append(rows, "", " "+fg(colorDim, "Esc to cancel · Tab to amend"))
}

// optionRow is "❯ 1. Yes" when highlighted, "  2. No" otherwise; sep is
// what follows the number ("." for the question picker, ". " elsewhere).
func (m *model) optionRow(i int, label, sep string) string {
	num := fg(colorDim, strconv.Itoa(i+1)+sep)
	if sep == "." {
		num += " "
	}
	d := m.dialog
	if d.typing && i == d.textOption() {
		label = string(d.text) + reverse(" ")
	}
	if i == d.cursor {
		return fg(colorAccent, "❯") + " " + num + fg(colorAccent, label)
	}
	return "  " + num + label
}

// questionRows is the AskUserQuestion picker of capture 21.
func (m *model) questionRows(width int) []string {
	rows := []string{
		fg(colorDim, rule("─", width)),
		fg(16, bg(colorAccent, " ☐ "+questionHeader+" ")),
		"",
		bold(fg(colorText, questionText)),
		"",
	}
	for i, o := range questionOptions {
		rows = append(rows, m.optionRow(i, o.label, "."), "     "+fg(colorDim, o.description))
	}
	typeSomething := fg(colorDim, "Type something.")
	rows = append(rows,
		m.optionRow(len(questionOptions), typeSomething, "."),
		fg(colorDim, rule("─", width)),
		m.optionRow(len(questionOptions)+1, "Chat about this", "."),
		"",
		fg(colorDim, "Enter to select · ↑/↓ to navigate · Esc to cancel"),
	)
	return rows
}

// planRows is the plan approval of captures 32/32b. It fills the screen
// but for two rows of transcript, with blank rows between the plan and the
// question, so that the options sit at the bottom.
func (m *model) planRows(width, height int) []string {
	inner := max(width-4, 1)
	rows := []string{
		fg(colorAccent, rule("▔", width)),
		"",
		"  " + fg(colorPlanRule, rule("─", inner)),
		"   " + bold(fg(colorAccent, "Ready to code?")),
		"",
		"   Here is Claude's plan:",
		"  " + fg(colorFaint, rule("╌", inner)),
		"   " + emphasis("Fake plan: add hello.txt"),
		"",
		"   " + bold("Steps"),
		"",
		"   1. Create " + fg(colorAccent, "hello.txt") + " with a greeting",
		"   2. Run the tests",
		"   3. Commit the change",
		"  " + fg(colorFaint, rule("╌", inner)),
	}
	question := []string{
		"  " + fg(colorPlanRule, rule("─", inner)),
		"   " + fg(colorDim, planQuestion),
		"",
	}
	for i, l := range planOptions {
		if i == 2 && !(m.dialog.typing && m.dialog.cursor == 2) {
			l = fg(colorDim, l) // the feedback option reads as a placeholder
		}
		question = append(question, "   "+m.optionRow(i, l, ". "))
	}
	question = append(question,
		"        "+fg(colorDim, "shift+tab to approve with this feedback"),
		"",
		"   "+fg(colorDim, "ctrl+g to edit in Vim · ~/.claude/plans/"+planSlug+".md"),
	)
	if gap := height - 2 - len(rows) - len(question); gap > 0 {
		rows = append(rows, make([]string, gap)...)
	}
	return append(rows, question...)
}
