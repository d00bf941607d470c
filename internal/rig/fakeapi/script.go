package fakeapi

import (
	"strings"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// answer is a chosen reply plus the id of its tool call, if any.
type answer = fakeserver.Answer[Reply]

// HandlePlan answers fresh turns whose last user text contains substr as
// Claude plans in Claude Code 2.1.328: a Write of plan into the plan file
// the plan-mode reminder names, then ExitPlanMode (the approval menu shows
// only once that file exists, docs/claude-code.md), then after when not nil.
// Outside plan mode the request names no plan file, and the reply says so.
func (s *Server) HandlePlan(substr, plan string, after *Reply) {
	s.HandleFunc(func(req Request) (Reply, bool) {
		if req.ToolResult || !strings.Contains(req.LastUserText, substr) {
			return Reply{}, false
		}
		file := req.PlanFilePath()
		if file == "" {
			return Reply{Text: "fake API: the request names no plan file; is plan mode on?"}, true
		}
		return Reply{
			Text: "I'll write up a plan.",
			Tool: &ToolCall{Name: "Write", Input: map[string]any{"file_path": file, "content": plan}},
			Next: &Reply{
				Text: "The plan is ready.",
				Tool: &ToolCall{Name: "ExitPlanMode", Input: map[string]any{}},
				Next: after,
			},
		}, true
	})
}
