package fakeapi

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"
)

// script holds what the server answers; Server.mu guards it.
type script struct {
	rules    []func(Request) (Reply, bool)
	queue    []Reply
	fallback Reply
	next     map[string]*Reply  // tool_use_id -> the reply to its result
	failed   map[[32]byte]Reply // body hash -> the error it got, for retries
}

// maxFailures bounds the remembered failures; retries come within seconds,
// so forgetting old ones loses nothing.
const maxFailures = 64

func newScript() script {
	return script{fallback: Reply{Text: DefaultText}, next: map[string]*Reply{}, failed: map[[32]byte]Reply{}}
}

// answer is a chosen reply plus the id of its tool call, if any.
type answer struct {
	reply  Reply
	toolID string
	retry  bool // the reply repeats the error of an identical request
}

// Handle answers every fresh user turn whose last user text contains substr
// with r. Rules are tried in the order they were added, before the queue.
func (s *Server) Handle(substr string, r Reply) {
	s.HandleFunc(func(req Request) (Reply, bool) {
		return r, !req.ToolResult && strings.Contains(req.LastUserText, substr)
	})
}

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

// HandleFunc adds a rule that sees every Messages request except the title
// side request, tool loop continuations included, and answers the ones it
// returns true for. It runs on the request's goroutine, outside the
// server's lock.
func (s *Server) HandleFunc(rule func(Request) (Reply, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script.rules = append(s.script.rules, rule)
}

// Enqueue adds replies for the next fresh user turns that no rule answers,
// one each, in order. Tool loop continuations never take from the queue.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script.queue = append(s.script.queue, replies...)
}

// SetDefault sets the reply for anything nothing else answers; it starts as
// Reply{Text: DefaultText}.
func (s *Server) SetDefault(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script.fallback = r
}

// choose picks the reply for req (see the package doc for the order).
func (s *Server) choose(req Request) answer {
	if req.Title {
		return answer{reply: Reply{Text: TitleText}}
	}
	// Claude Code retries by resending the very same body (its
	// x-stainless-retry-count stays 0), and every new turn or tool result
	// changes the body, so an identical body is a retry.
	sum := sha256.Sum256(req.Body)
	s.mu.Lock()
	r, retry := s.script.failed[sum]
	ok := retry
	if !ok {
		r, ok = s.script.continuation(req)
	}
	rules := s.script.rules
	s.mu.Unlock()
	for i := 0; !ok && i < len(rules); i++ {
		r, ok = rules[i](req)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		r = s.script.pop(req)
	}
	if (r.failed() || r.MidStreamError) && !r.lapses {
		if len(s.script.failed) >= maxFailures {
			clear(s.script.failed)
		}
		s.script.failed[sum] = r
	}
	a := answer{reply: r, retry: retry}
	if r.Tool != nil {
		a.toolID = fmt.Sprintf("toolu_fake_%016x", rand.Uint64())
		if r.Next != nil {
			s.script.next[a.toolID] = r.Next
		}
	}
	return a
}

// continuation returns the Next of the tool call whose result req carries.
func (sc *script) continuation(req Request) (Reply, bool) {
	for _, id := range req.ToolUseIDs {
		if r, ok := sc.next[id]; ok {
			delete(sc.next, id)
			return *r, true
		}
	}
	return Reply{}, false
}

// pop takes the next queued reply for a fresh turn, else the default.
func (sc *script) pop(req Request) Reply {
	if req.ToolResult || len(sc.queue) == 0 {
		return sc.fallback
	}
	r := sc.queue[0]
	sc.queue = sc.queue[1:]
	return r
}
