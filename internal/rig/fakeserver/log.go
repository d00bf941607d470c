package fakeserver

import (
	"fmt"
	"time"
)

// Record appends req to the log and wakes everyone waiting for requests.
// A handler records a request when it arrives, before answering it.
func (b Backend[Req, Rep]) Record(req Req) {
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, req)
	close(s.logged)
	s.logged = make(chan struct{})
}

// Requests returns every request answered so far, oldest first. A request
// is logged when it arrives, before its answer is written.
func (s *Server[Req, Rep]) Requests() []Req {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Req(nil), s.log...)
}

// WaitForRequest returns the first logged request, past or future, that
// pred accepts. It fails after timeout (measured on the server's Clock) or
// when the server closes.
func (s *Server[Req, Rep]) WaitForRequest(pred func(Req) bool, timeout time.Duration) (Req, error) {
	var none Req
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
			return none, fmt.Errorf("wait for request: none matched in %v (%d requests)", timeout, len(log))
		case <-s.ctx.Done():
			return none, fmt.Errorf("wait for request: server closed")
		}
	}
}
