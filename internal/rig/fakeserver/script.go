package fakeserver

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// script holds what the server answers; Server.mu guards it.
type script[Req Entry, Rep any] struct {
	rules    []func(Req) (Rep, bool)
	queue    []Rep
	fallback Rep
	next     map[string]*Rep  // tool call id -> the reply to its result
	failed   map[[32]byte]Rep // retry key -> the error it got, for retries
}

// maxFailures bounds the remembered failures; retries come within seconds,
// so forgetting old ones loses nothing.
const maxFailures = 64

func newScript[Req Entry, Rep any](fallback Rep) script[Req, Rep] {
	return script[Req, Rep]{fallback: fallback, next: map[string]*Rep{}, failed: map[[32]byte]Rep{}}
}

// Answer is the reply chosen for a request.
type Answer[Rep any] struct {
	Reply  Rep
	CallID string // the id of the reply's tool call, if it makes one
	Retry  bool   // the reply repeats the error of an identical request
}

// Handle answers every fresh user turn whose last user text contains substr
// with r. Rules are tried in the order they were added, before the queue.
func (s *Server[Req, Rep]) Handle(substr string, r Rep) {
	s.HandleFunc(func(req Req) (Rep, bool) {
		return r, s.fresh(req) && strings.Contains(req.common().LastUserText, substr)
	})
}

// HandleFunc adds a rule that sees every request the script answers (all
// but the title side request, tool loop continuations included) and answers
// the ones it returns true for. It runs on the request's goroutine, outside
// the server's lock.
func (s *Server[Req, Rep]) HandleFunc(rule func(Req) (Rep, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script.rules = append(s.script.rules, rule)
}

// Enqueue adds replies for the next fresh user turns that no rule answers,
// one each, in order. Tool loop continuations never take from the queue.
func (s *Server[Req, Rep]) Enqueue(replies ...Rep) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script.queue = append(s.script.queue, replies...)
}

// SetDefault sets the reply for anything nothing else answers; it starts as
// the format's default.
func (s *Server[Req, Rep]) SetDefault(r Rep) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script.fallback = r
}

// fresh reports whether req is a fresh user turn rather than a tool loop
// continuation.
func (s *Server[Req, Rep]) fresh(req Req) bool { return len(s.format.ToolResults(req)) == 0 }

// Choose picks the reply for req (see the package doc for the order) and
// names its tool call, if it makes one.
func (b Backend[Req, Rep]) Choose(req Req) Answer[Rep] {
	s, f := b.s, &b.s.format
	if req.common().Title {
		return Answer[Rep]{Reply: f.Title}
	}
	// A CLI retries by resending the request, and every new turn or tool
	// result changes it, so a request with the key of one that got an
	// error is a retry.
	key := f.retryKey(req.common().Body)
	s.mu.Lock()
	r, retry := s.script.failed[key]
	ok := retry
	if !ok {
		r, ok = s.script.continuation(f.ToolResults(req))
	}
	rules := s.script.rules
	s.mu.Unlock()
	for i := 0; !ok && i < len(rules); i++ {
		r, ok = rules[i](req)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		r = s.script.pop(s.fresh(req))
	}
	if f.Sticks(r) {
		if len(s.script.failed) >= maxFailures {
			clear(s.script.failed)
		}
		s.script.failed[key] = r
	}
	a := Answer[Rep]{Reply: r, Retry: retry}
	if calls, next := f.ToolCall(r); calls {
		a.CallID = fmt.Sprintf("%s_%016x", f.CallPrefix, rand.Uint64())
		if next != nil {
			s.script.next[a.CallID] = next
		}
	}
	return a
}

// continuation returns the Next of the first tool call in ids that has one.
func (sc *script[Req, Rep]) continuation(ids []string) (Rep, bool) {
	for _, id := range ids {
		if r, ok := sc.next[id]; ok {
			delete(sc.next, id)
			return *r, true
		}
	}
	var none Rep
	return none, false
}

// pop takes the next queued reply for a fresh turn, else the default.
func (sc *script[Req, Rep]) pop(fresh bool) Rep {
	if !fresh || len(sc.queue) == 0 {
		return sc.fallback
	}
	r := sc.queue[0]
	sc.queue = sc.queue[1:]
	return r
}
