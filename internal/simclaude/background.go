package simclaude

import (
	"fmt"
	"strings"
	"time"
)

// backgroundAgent is the subagent of the background scenario (captures
// 48/49): the turn ends while it runs, and its report starts a new turn.
type backgroundAgent struct {
	id      string
	started time.Time
	doneAt  time.Time
}

// task is the agent as Stop's background_tasks lists it.
func (a *backgroundAgent) task() object {
	return object{
		{"id", a.id}, {"type", "subagent"}, {"status", "running"},
		{"description", agentDescription}, {"agent_type", agentType},
	}
}

// backgroundSteps launch the agent, reply, and stop while it still runs.
func (m *model) backgroundSteps(work time.Duration) []step {
	steps := []step{{after: work / 2, run: (*model).launchAgent}}
	steps = append(steps, replySteps(work/2,
		"The agent is working in the background. I'll report when it finishes.")...)
	return append(steps, step{after: streamGap, run: func(m *model, now time.Time) {
		var running []object
		if m.agent != nil {
			running = append(running, m.agent.task())
		}
		m.hookStop(strings.Join(m.turn.reply, "\n"), running)
		m.items = append(m.items, item{lines: []line{raw(fg(colorDim, "✻") + " " +
			fg(colorDim, "Waiting for ") + bold("1") + fg(colorDim, " background agent to finish"))}})
		m.endTurn(OutcomeWaiting, now)
	}})
}

func (m *model) launchAgent(now time.Time) {
	m.streamLine("I'll delegate this.")
	m.newReply()
	a := &backgroundAgent{id: newAgentID(m.rng), started: now, doneAt: now.Add(m.cfg.AgentTime)}
	call := toolCall{
		name:         "Agent",
		id:           newToolUseID(m.rng),
		input:        object{{"description", agentDescription}, {"prompt", "Say hi."}, {"subagent_type", agentType}},
		response:     object{{"status", "async_launched"}, {"agentId", a.id}, {"description", agentDescription}},
		responseText: "Async agent launched successfully.",
	}
	m.hookPreToolUse(call)
	m.items = append(m.items, item{lines: []line{
		toolHeader("Agent", agentDescription),
		resultLine(0, "Backgrounded agent"+fg(colorDim, " (↓ to manage · ctrl+o to expand)")),
	}})
	m.hookPostToolUse(call, 1)
	m.agent = a
	m.hookSubagentStart(a)
	m.hookPostToolBatch(call)
}

// agentFinished reports the agent back; its task notification is a new
// turn, after the running one if there is one.
func (m *model) agentFinished(now time.Time) {
	a := m.agent
	m.agent = nil
	m.agentsRan = true
	m.hookSubagentStop(a.id, agentType, "hi from the subagent", []object{a.task()})
	took := FormatDuration(now.Sub(a.started))
	m.items = append(m.items, item{lines: []line{raw(fg(colorToolOK, "●") +
		fmt.Sprintf(" Agent %q finished", agentDescription) + fg(colorDim, " · "+took))}})
	m.queue = append(m.queue, queuedPrompt{text: taskNotification(a, now.Sub(a.started)), hidden: true})
	m.startQueued(now)
}

// taskNotification is the user message Claude sends itself when a
// background agent reports back.
func taskNotification(a *backgroundAgent, took time.Duration) string {
	return "<task-notification>\n<task-id>" + a.id + "</task-id>\n<status>completed</status>\n" +
		"<summary>Agent \"" + agentDescription + "\" finished</summary>\n<result>hi from the subagent</result>\n" +
		fmt.Sprintf("<usage><duration_ms>%d</duration_ms></usage>\n", took.Milliseconds()) + "</task-notification>"
}

// taskNotificationTurn answers a task notification without a prompt echo.
func (m *model) taskNotificationTurn(prompt string, now time.Time) {
	promptID := newUUID(m.rng)
	m.hookUserPromptSubmit(promptID, prompt)
	steps := replySteps(m.cfg.Work/3, "The background agent finished.")
	m.beginTurn(prompt, promptID, now, append(steps, step{after: streamGap, run: finishTurn}))
}

// agentRows is the task list under the footer while the agent runs.
func (m *model) agentRows(now time.Time, width int) []string {
	if m.agent == nil {
		return nil
	}
	left := "  " + fg(colorDim, "◯ "+agentType) + "  " + fg(colorDim, agentDescription)
	right := FormatDuration(now.Sub(m.agent.started)) + " · ↑ 1.2k tokens"
	return []string{"", "  " + bold("● main"), rightAlign(left, fg(colorDim, right), width)}
}
