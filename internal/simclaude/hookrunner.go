package simclaude

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"sync"
	"time"
)

// hookTimeout bounds one hook command, as Claude's default hook timeout does.
const hookTimeout = 60 * time.Second

// hookRunner runs the hook command once per payload, one at a time and in
// order, on its own goroutine: queuing never blocks the screen, and hook
// files see the events in the order Claude fires them.
type hookRunner struct {
	cmd string
	dir string

	mu      sync.Mutex
	queue   [][]byte
	wake    chan struct{} // a payload was queued
	closing chan struct{} // finish the queue, then return
	stop    chan struct{} // return now, killing the running hook
	done    chan struct{}
}

func newHookRunner(cmd, dir string) *hookRunner {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = "" // a --cwd that exists only on screen; hooks run where we run
	}
	return &hookRunner{
		cmd:     cmd,
		dir:     dir,
		wake:    make(chan struct{}, 1),
		closing: make(chan struct{}),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
}

// Start starts the worker; without a command payloads are dropped.
func (h *hookRunner) Start() {
	if h.cmd == "" {
		close(h.done)
		return
	}
	go h.loop()
}

// Enqueue queues one payload.
func (h *hookRunner) Enqueue(payload object) {
	if h.cmd == "" {
		return
	}
	b, err := payload.encode()
	if err != nil {
		return // payloads are built from plain values; this cannot fail
	}
	h.mu.Lock()
	h.queue = append(h.queue, append(b, '\n'))
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// Close lets queued hooks (SessionEnd among them) run for up to grace,
// then kills what still runs and returns once the worker is gone.
func (h *hookRunner) Close(grace time.Duration) {
	close(h.closing)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-h.done:
		return
	case <-t.C:
	}
	close(h.stop)
	<-h.done
}

func (h *hookRunner) next() ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.queue) == 0 {
		return nil, false
	}
	p := h.queue[0]
	h.queue = h.queue[1:]
	return p, true
}

func (h *hookRunner) loop() {
	defer close(h.done)
	for {
		payload, ok := h.next()
		if !ok {
			select {
			case <-h.wake:
				continue
			case <-h.closing:
				return
			case <-h.stop:
				return
			}
		}
		h.run(payload)
		select {
		case <-h.stop:
			return
		default:
		}
	}
}

// run runs the command like Claude: sh -c, payload on stdin, the
// environment inherited plus CLAUDE_PROJECT_DIR, output discarded.
func (h *hookRunner) run(payload []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	go func() {
		select {
		case <-h.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.cmd)
	cmd.Dir = h.dir
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+h.dir)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.WaitDelay = time.Second
	_ = cmd.Run() // a failing hook does not concern Claude's screen
}
