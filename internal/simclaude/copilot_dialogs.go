package simclaude

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// The Copilot look's dialogs: the shell and file-write permission prompts,
// the ask_user form and the plan approval. Each replaces the box and the
// state row; the turn waits until it is answered.

// copilotOpen shows a dialog for call after preToolUse.
func (m *model) copilotOpen(kind dialogKind, call toolCall, now time.Time) {
	m.turn.tool = call
	m.turn.steps, m.turn.due = nil, time.Time{}
	m.cp.toolAt = now
	m.dialog = &dialog{kind: kind, copilot: true}
}

// copilotOpenShell ends the permission scenario's work with the shell
// prompt: preToolUse, then permissionRequest and the notification.
func (m *model) copilotOpenShell(now time.Time) {
	m.streamLine("I'll remove the old build output first.")
	m.newReply()
	m.items = append(m.items, item{lines: []line{
		copilotTool(fg(copilotYellow, "$"), "Shell", copilotRiskyDesc, "", ""),
		raw("   " + copilotRiskyCommand),
	}})
	m.turn.toolItem = len(m.items) - 1
	call := toolCall{name: copilotToolShell, input: object{{"command", copilotRiskyCommand}, {"description", copilotRiskyDesc}}}
	m.emitCopilot("preToolUse", field{"toolName", call.name}, field{"toolArgs", call.input})
	m.copilotOpen(dialogPermission, call, now)
	m.emitCopilot("permissionRequest", field{"toolName", call.name}, field{"toolInput", object{{"command", copilotRiskyCommand}}},
		field{"permissionSuggestions", []object{}})
	m.emitCopilot("notification", field{"message", "Run command: " + copilotRiskyCommand}, field{"title", "Permission needed"},
		field{"hook_event_name", "Notification"}, field{"notification_type", "permission_prompt"})
}

// copilotInit is /init: Copilot sends its generated prompt and the model
// writes the instructions file with apply_patch, which asks first unless
// writes are allowed (on screen only; no file is touched).
func (m *model) copilotInit(command string, now time.Time) {
	m.items = append(m.items, copilotEcho(command, now))
	m.copilotBegin(command, true, copilotInitPrompt, now)
	path := m.cfg.Cwd + "/" + copilotInstructions
	patch := "*** Begin Patch\n*** Add File: " + path + "\n"
	diff := "\ndiff --git a" + path + " b" + path + "\ncreate file mode 100644\nindex 0000000..0000000\n--- a/dev/null\n+++ b" + path +
		"\n@@ -1,0 +1," + strconv.Itoa(len(copilotInstructionLines)) + " @@\n"
	for _, l := range copilotInstructionLines[:len(copilotInstructionLines)-1] {
		patch += "+" + l + "\n"
	}
	for _, l := range copilotInstructionLines {
		diff += "+" + l + "\n"
	}
	patch += "*** End Patch\n"
	call := toolCall{name: copilotToolPatch, responseText: "Added 1 file(s): " + path}
	m.schedule(now, step{after: m.cfg.Work / 2, run: func(m *model, now time.Time) {
		m.streamLine("Writing the instructions file.")
		m.newReply()
		m.items = append(m.items, item{lines: []line{copilotTool("○", "Edit", " Create "+copilotInstructions, "", "")}})
		m.turn.toolItem = len(m.items) - 1
		m.emitCopilot("preToolUse", field{"toolName", call.name}, field{"toolArgs", patch})
		c := call
		c.input = object{{"patch", patch}}
		// An allowed write still runs permissionRequest, without a prompt
		// or a notification, and its row shows no time.
		if m.cfg.AllowWrite {
			m.turn.tool = c
		} else {
			m.copilotOpen(dialogPermission, c, now)
		}
		m.emitCopilot("permissionRequest", field{"toolName", "edit"},
			field{"toolInput", object{{"file_path", path}, {"diff", diff + "\n"}}}, field{"permissionSuggestions", []object{}})
		if m.cfg.AllowWrite {
			m.copilotRan("", now)
			return
		}
		m.emitCopilot("notification", field{"message", "Edit file: " + path}, field{"title", "Permission needed"},
			field{"hook_event_name", "Notification"}, field{"notification_type", "permission_prompt"})
	}})
}

// copilotOpenQuestion ends the question scenario's work with the ask_user
// form of the question recording.
func (m *model) copilotOpenQuestion(now time.Time) {
	m.streamLine("I need a decision.")
	m.newReply()
	m.items = append(m.items, item{lines: []line{copilotTool("○", "Asking user", "Waiting for response", "", "")}})
	m.turn.toolItem = len(m.items) - 1
	call := toolCall{name: copilotToolAsk, input: copilotAskArgs()}
	m.emitCopilot("preToolUse", field{"toolName", call.name}, field{"toolArgs", call.input})
	m.copilotOpen(dialogQuestion, call, now)
	m.emitCopilot("notification", field{"message", "Information requested"}, field{"title", "Information requested"},
		field{"hook_event_name", "Notification"}, field{"notification_type", "elicitation_dialog"})
}

func copilotAskArgs() object {
	var enum, names []string
	for _, o := range copilotQuestionOptions {
		enum, names = append(enum, o.value), append(names, o.label)
	}
	db := object{{"enum", enum}, {"enumNames", names}, {"title", "Database"}, {"type", "string"}}
	return object{{"message", copilotQuestion}, {"requestedSchema", object{{"properties", object{{"db", db}}}, {"required", []string{"db"}}}}}
}

// copilotOpenPlan ends the plan scenario's work, in plan mode, with the
// plan approval; no notification runs for it.
func (m *model) copilotOpenPlan(now time.Time) {
	m.streamLine("Here is the plan.")
	m.newReply()
	m.items = append(m.items, item{lines: []line{copilotTool("○", "Plan ready for review", m.copilotPlanLine(), "", "")}})
	m.turn.toolItem = len(m.items) - 1
	call := toolCall{name: copilotToolPlan, input: object{{"recommendedAction", "interactive"}, {"summary", copilotPlanSummary}}}
	m.emitCopilot("preToolUse", field{"toolName", call.name}, field{"toolArgs", call.input})
	m.copilotOpen(dialogPlan, call, now)
}

// copilotPlanLine is the plan call's arguments as its row shows them.
func (m *model) copilotPlanLine() string {
	flat := strings.ReplaceAll(copilotPlanSummary, "\n", " ")
	return "- Add a README.md with one line - No other file... · recommendedAction: \"interactive\", summary: \"" + flat + "\""
}

// copilotDialogInput handles one input event while a Copilot dialog is
// open.
func (m *model) copilotDialogInput(ev inputEvent, now time.Time) {
	d := m.dialog
	n := 3
	if d.kind == dialogPlan {
		n = len(copilotPlanOptions)
	}
	last := n - 1
	// The permission prompt's last option is a text field: typed text goes
	// in once it is highlighted, and Enter refuses with it.
	field := d.kind == dialogPermission && d.cursor == last
	if s := strings.TrimSpace(string(d.text)); field && ev.key == keyEnter && s != "" {
		m.record(now, LogEntry{Kind: LogSubmit, Text: s})
		m.copilotRefuse(s, now)
		return
	}
	m.logInput(ev, now)
	switch {
	case field && (ev.kind == evText || ev.kind == evPaste) && (len(d.text) > 0 || !isDigit(ev.text)):
		d.text = append(d.text, []rune(ev.text)...)
	case field && ev.key == keyBackspace && len(d.text) > 0:
		d.text = d.text[:len(d.text)-1]
	case ev.kind == evText && d.kind != dialogQuestion && isDigit(ev.text):
		if i := int(ev.text[0] - '1'); i >= 0 && i < n {
			d.cursor = i
			if i < last || d.kind == dialogPlan {
				m.copilotChoose(now)
			}
		}
	case ev.key == keyEnter:
		m.copilotChoose(now)
	case ev.key == keyUp:
		d.cursor = (d.cursor + n - 1) % n
	case ev.key == keyDown:
		d.cursor = (d.cursor + 1) % n
	case ev.key == keyEscape, ev.key == keyCtrlD && d.kind == dialogQuestion:
		m.copilotCancel(now)
	}
}

func isDigit(s string) bool { r := []rune(s); return len(r) == 1 && unicode.IsDigit(r[0]) }

// copilotChoose takes the highlighted option. The last option of the
// permission prompt waits for text; the form's "Other" and the plan's
// "Suggest changes" take text this look does not model, so Enter on them
// does nothing.
func (m *model) copilotChoose(now time.Time) {
	d := m.dialog
	switch d.kind {
	case dialogPermission:
		if d.cursor < 2 {
			m.copilotAllow(now)
		}
	case dialogQuestion:
		if d.cursor < len(copilotQuestionOptions) {
			m.copilotAnswer(copilotQuestionOptions[d.cursor].value, now)
		}
	case dialogPlan:
		if d.cursor < 3 {
			m.copilotPlanChosen(d.cursor, now)
		}
	}
}

// copilotAllow runs the asked tool; the turn goes on.
func (m *model) copilotAllow(now time.Time) {
	m.closeDialog()
	m.copilotRan(copilotSeconds(now.Sub(m.cp.toolAt)), now)
}

// copilotRan finishes the turn's tool, its row showing took.
func (m *model) copilotRan(took string, now time.Time) {
	call := m.turn.tool
	args := call.input.get("patch")
	var reply string
	if call.name == copilotToolPatch {
		m.items[m.turn.toolItem] = item{lines: []line{copilotTool(fg(copilotGreen, "●"), "Edit", " Create "+copilotInstructions, "", took)}}
		reply = "Created " + copilotInstructions + "."
	} else {
		args = call.input
		m.items[m.turn.toolItem] = item{lines: []line{
			copilotTool(fg(copilotYellow, "$"), "Shell", copilotRiskyDesc, " No Content", ""),
			raw("   " + copilotRiskyCommand),
		}}
		call.responseText = "<shellId: 0 completed with exit code 0>"
		reply = "I removed the old build output."
	}
	m.emitCopilot("postToolUse", field{"toolName", call.name}, field{"toolArgs", args},
		field{"toolResult", object{{"resultType", "success"}, {"textResultForLlm", call.responseText}}})
	m.copilotGoOn(now, reply)
}

// copilotRefuse is the last option with feedback: the tool does not run,
// the model reads why, and the turn goes on. No hook reports it.
func (m *model) copilotRefuse(feedback string, now time.Time) {
	m.closeDialog()
	lines := m.items[m.turn.toolItem].lines
	first := copilotTool(fg(copilotRed, "✗"), "Shell", copilotRiskyDesc, fg(copilotRed, " The user rejected this tool call. User feedback: "+feedback), "")
	if m.turn.tool.name == copilotToolPatch {
		first = copilotTool(fg(copilotRed, "✗"), "Edit", " Create "+copilotInstructions, fg(copilotRed, " The user rejected this tool call. User feedback: "+feedback), "")
	}
	m.items[m.turn.toolItem] = item{lines: append([]line{first}, lines[1:]...)}
	m.copilotGoOn(now, "All right, I left it as it is.")
}

// copilotGoOn streams the model's answer after a tool and finishes.
func (m *model) copilotGoOn(now time.Time, reply string) {
	m.newReply()
	steps := replySteps(m.cfg.Work/3, reply)
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}

// copilotAnswer takes an option of the form.
func (m *model) copilotAnswer(value string, now time.Time) {
	m.closeDialog()
	m.items[m.turn.toolItem] = item{lines: []line{
		copilotTool(fg(copilotGreen, "●"), "Asked user", copilotQuestion, "", copilotSeconds(now.Sub(m.cp.toolAt))),
		raw("   └ " + value),
	}}
	m.emitCopilot("postToolUse", field{"toolName", copilotToolAsk}, field{"toolArgs", copilotAskArgs()},
		field{"toolResult", object{{"resultType", "success"}, {"textResultForLlm", "User responded: " + value}}})
	m.copilotGoOn(now, "Thanks for the answer.")
}

// copilotPlanChosen is option 1 (the plan runs in Interactive mode), 2
// (in Autopilot) or 3 (Interactive, the plan not run).
func (m *model) copilotPlanChosen(option int, now time.Time) {
	m.closeDialog()
	m.cp.mode = copilotInteractive
	if option == 1 {
		m.cp.mode = copilotAutopilot
	}
	result := "Plan approved! Exited plan mode."
	reply := "I added README.md with one line."
	if option == 2 {
		result, reply = "Exited plan mode.", "I left the plan unrun."
	}
	// The arguments are cut to keep the result on the row of the
	// recordings' width.
	took := copilotSeconds(now.Sub(m.cp.toolAt))
	room := DefaultCols - 2 - ansi.StringWidth(" ● Plan ready for review  "+result+" "+took)
	args := ansi.Truncate(m.copilotPlanLine(), room, "…")
	m.items[m.turn.toolItem] = item{lines: []line{
		copilotTool(fg(copilotGreen, "●"), "Plan ready for review", args, " "+result, took),
	}}
	m.emitCopilot("postToolUse", field{"toolName", copilotToolPlan}, field{"toolArgs", m.turn.tool.input},
		field{"toolResult", object{{"resultType", "success"}, {"textResultForLlm", result}}})
	m.copilotGoOn(now, reply)
}

// copilotCancel is Esc (Ctrl+D on the form): the call is aborted and the
// turn ends, without postToolUse or agentStop.
func (m *model) copilotCancel(now time.Time) {
	kind := m.dialog.kind
	m.closeDialog()
	if kind == dialogPermission {
		name, what, verb := "Shell", copilotRiskyDesc, "shell command ("+copilotRiskyVerb+")"
		if m.turn.tool.name == copilotToolPatch {
			name, what, verb = "Edit", " Create "+copilotInstructions, "file operation"
		}
		lines := m.items[m.turn.toolItem].lines
		it := item{lines: []line{copilotTool(fg(copilotRed, "✗"), name, what, fg(copilotRed, " Operation aborted by user"), "")}}
		it.lines = append(it.lines, lines[1:]...)
		it.lines = append(it.lines, raw("   "+bold("Approval check ")), raw("     └ - Confirmation cancelled for "+verb))
		m.items[m.turn.toolItem] = it
	}
	m.items = append(m.items, copilotNote(copilotCancelled))
	outcome := map[dialogKind]string{dialogPermission: OutcomeDenied, dialogQuestion: OutcomeDeclined, dialogPlan: OutcomeRejected}[kind]
	m.endTurn(outcome, now)
}
