package daemon

import (
	"context"
	"sync"
)

// addrLocks serialises the lifecycle of each pane: attach, detach, toggle,
// adoption and the end of a pane go through the lock of its canonical
// address, held across the slow backend work, so that two requests for one
// pane can never both start a controller. Different panes do not wait for
// each other.
type addrLocks struct {
	mu    sync.Mutex
	locks map[string]*addrLock
}

type addrLock struct {
	ch   chan struct{} // holds one token while locked
	refs int           // holders and waiters, so an idle entry can go
}

func newAddrLocks() *addrLocks { return &addrLocks{locks: make(map[string]*addrLock)} }

// lock takes addr's lock, or gives up when ctx ends. The returned func
// releases it.
func (l *addrLocks) lock(ctx context.Context, addr string) (unlock func(), err error) {
	l.mu.Lock()
	a := l.locks[addr]
	if a == nil {
		a = &addrLock{ch: make(chan struct{}, 1)}
		l.locks[addr] = a
	}
	a.refs++
	l.mu.Unlock()
	select {
	case a.ch <- struct{}{}:
		return func() { <-a.ch; l.drop(addr, a) }, nil
	case <-ctx.Done():
		l.drop(addr, a)
		return nil, ctx.Err()
	}
}

func (l *addrLocks) drop(addr string, a *addrLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a.refs--; a.refs == 0 {
		delete(l.locks, addr)
	}
}
