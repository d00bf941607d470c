package fakeopenai

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// script holds what the server answers; Server.mu guards it.
type script struct {
	rules    []func(Request) (Reply, bool)
	queue    []Reply
	fallback Reply
	next     map[string]*Reply  // call_id -> the reply to its output
	failed   map[[32]byte]Reply // body hash -> the error it got, for retries
}

// maxFailures bounds the remembered failures; retries come within seconds,
// so forgetting old ones loses nothing.
const maxFailures = 64

func newScript() script {
	return script{fallback: Reply{Text: DefaultText}, next: map[string]*Reply{}, failed: map[[32]byte]Reply{}}
}

// answer is a chosen reply plus the call id of its tool call, if any.
type answer struct {
	reply  Reply
	callID string
	retry  bool // the reply repeats the error of an identical request
}

// Handle answers every fresh user turn whose last user text contains
// substr with r. Rules are tried in the order they were added, before the
// queue.
func (s *Server) Handle(substr string, r Reply) {
	s.HandleFunc(func(req Request) (Reply, bool) {
		return r, !req.ToolOutput && strings.Contains(req.LastUserText, substr)
	})
}

// HandleFunc adds a rule that sees every Responses request except the
// title side request, tool loop continuations included, and answers the
// ones it returns true for. It runs on the request's goroutine, outside the
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

// SetDefault sets the reply for anything nothing else answers; it starts
// as Reply{Text: DefaultText}.
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
	// Codex retries by resending the same body, and every new turn or
	// tool output changes the body, so an identical body is a retry.
	sum := bodyKey(req.Body)
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
	if r.failed() || r.Failed != nil {
		if len(s.script.failed) >= maxFailures {
			clear(s.script.failed)
		}
		s.script.failed[sum] = r
	}
	a := answer{reply: r, retry: retry}
	if r.Tool != nil {
		a.callID = fmt.Sprintf("call_fake_%016x", rand.Uint64())
		if r.Next != nil {
			s.script.next[a.callID] = r.Next
		}
	}
	return a
}

// bodyKey hashes a request body in a canonical form: Codex writes its
// client_metadata map in a new key order every time, so the bytes of a
// retry differ while its JSON does not. Go marshals map keys sorted.
func bodyKey(body []byte) [32]byte {
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	return sha256.Sum256(body)
}

// continuation returns the Next of the tool call whose output req carries.
func (sc *script) continuation(req Request) (Reply, bool) {
	for _, id := range req.CallIDs {
		if r, ok := sc.next[id]; ok {
			delete(sc.next, id)
			return *r, true
		}
	}
	return Reply{}, false
}

// pop takes the next queued reply for a fresh turn, else the default.
func (sc *script) pop(req Request) Reply {
	if req.ToolOutput || len(sc.queue) == 0 {
		return sc.fallback
	}
	r := sc.queue[0]
	sc.queue = sc.queue[1:]
	return r
}
