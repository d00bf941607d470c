package hooks

import (
	"github.com/codeman-dev/codeman/hooks/spool"
	"github.com/codeman-dev/codeman/respawn"
)

// hookKinds turns the marker protocol's kinds into the controller's; each
// pair has the same name, which a test checks.
var hookKinds = map[spool.Kind]respawn.HookKind{
	spool.KindStop:             respawn.HookStop,
	spool.KindIdlePrompt:       respawn.HookIdlePrompt,
	spool.KindPromptSubmitted:  respawn.HookPromptSubmitted,
	spool.KindToolStarted:      respawn.HookToolStarted,
	spool.KindToolFinished:     respawn.HookToolFinished,
	spool.KindQuestionPending:  respawn.HookQuestionPending,
	spool.KindQuestionAnswered: respawn.HookQuestionAnswered,
	spool.KindPlanApproval:     respawn.HookPlanApproval,
	spool.KindPermissionPrompt: respawn.HookPermissionPrompt,
	spool.KindElicitation:      respawn.HookElicitation,
	spool.KindClearFinished:    respawn.HookClearFinished,
	spool.KindTurnFailed:       respawn.HookTurnFailed,
	spool.KindSessionEnded:     respawn.HookSessionEnded,
	spool.KindInterrupted:      respawn.HookInterrupted,
}

// Interpret turns a marker into the signal the controller of its pane gets
// (the dispatch table is Marker.Kind). ok is false for events that carry
// no signal (MessageDisplay, SessionStart other than after /clear,
// SessionEnd for /clear, ...).
func Interpret(m Marker) (pane string, h respawn.Hook, ok bool) {
	kind, ok := hookKinds[m.Kind()]
	if !ok {
		return m.Pane, respawn.Hook{}, false
	}
	h = respawn.Hook{
		Kind:    kind,
		At:      m.At,
		Event:   m.Event,
		Tool:    m.Tool,
		Error:   m.Error,
		Message: m.Message,
		Detail:  m.Detail,
	}
	if kind == respawn.HookStop {
		h.Background = m.RunningTasks()
	}
	return m.Pane, h, true
}

// InterpretPayload interprets a hook payload as Claude Code sends it on
// stdin, for recordings that carry hook events (codeman replay).
func InterpretPayload(payload []byte) (respawn.Hook, bool) {
	m, err := spool.ParsePayload(payload)
	if err != nil {
		return respawn.Hook{}, false
	}
	_, h, ok := Interpret(m)
	return h, ok
}
