package fakeapi

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// script holds what the server answers; Server.mu guards it.
type script struct {
	rules    []func(Request) (Reply, bool)
	queue    []Reply
	fallback Reply
	next     map[string]*Reply // tool_use_id -> the reply to its result
	failed   *failure          // the last error answered, for its retries
}

// failure remembers an error reply and the text it answered.
type failure struct {
	text  string
	reply Reply
}

func newScript() script {
	return script{fallback: Reply{Text: DefaultText}, next: map[string]*Reply{}}
}

// answer is a chosen reply plus the id of its tool call, if any.
type answer struct {
	reply  Reply
	toolID string
}

// Handle answers every fresh user turn whose last user text contains substr
// with r. Rules are tried in the order they were added, before the queue.
func (s *Server) Handle(substr string, r Reply) {
	s.HandleFunc(func(req Request) (Reply, bool) {
		return r, !req.ToolResult && strings.Contains(req.LastUserText, substr)
	})
}

// HandleFunc adds a rule that sees every Messages request except the title
// side request, tool loop continuations included, and answers the ones it
// returns true for. It runs on the request's goroutine and must not call the
// Server.
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
	s.mu.Lock()
	r, ok := s.script.fixed(req)
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
	s.script.failed = nil
	if r.failed() || r.MidStreamError {
		s.script.failed = &failure{text: req.LastUserText, reply: r}
	}
	a := answer{reply: r}
	if r.Tool != nil {
		a.toolID = fmt.Sprintf("toolu_fake_%016x", rand.Uint64())
		if r.Next != nil {
			s.script.next[a.toolID] = r.Next
		}
	}
	return a
}

// fixed returns the replies that do not depend on rules: a retry repeats
// the error it retries, and a tool result gets its call's Next.
func (sc *script) fixed(req Request) (Reply, bool) {
	if req.Retry > 0 && sc.failed != nil && sc.failed.text == req.LastUserText {
		return sc.failed.reply, true
	}
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
