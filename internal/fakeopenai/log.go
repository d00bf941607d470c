package fakeopenai

import (
	"fmt"
	"strings"
	"time"
)

// record appends req to the log and wakes everyone waiting for requests.
func (s *Server) record(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, req)
	close(s.logged)
	s.logged = make(chan struct{})
}

// Requests returns every request answered so far, oldest first. A request
// is logged when it arrives, before its answer is written.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// WaitForRequest returns the first logged request, past or future, that
// pred accepts. It fails after timeout (measured on the server's Clock) or
// when the server closes.
func (s *Server) WaitForRequest(pred func(Request) bool, timeout time.Duration) (Request, error) {
	deadline := s.Clock.NewTimer(timeout)
	defer deadline.Stop()
	seen := 0
	for {
		s.mu.Lock()
		log, wake := s.log, s.logged
		s.mu.Unlock()
		for ; seen < len(log); seen++ {
			if pred(log[seen]) {
				return log[seen], nil
			}
		}
		select {
		case <-wake:
		case <-deadline.Chan():
			return Request{}, fmt.Errorf("wait for request: none matched in %v (%d requests)", timeout, len(log))
		case <-s.ctx.Done():
			return Request{}, fmt.Errorf("wait for request: server closed")
		}
	}
}

// UserTurn returns a predicate for WaitForRequest: a fresh user turn (not
// a tool loop continuation, not the title request) whose last user text
// contains substr.
func UserTurn(substr string) func(Request) bool {
	return func(r Request) bool {
		return !r.ToolOutput && !r.Title && r.Path == "/v1/responses" && strings.Contains(r.LastUserText, substr)
	}
}
