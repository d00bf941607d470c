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
	env []string // added to the inherited environment
	// bare leaves the payload without a newline at its end, as Copilot
	// and OpenCode's plugin write it.
	bare bool

	mu      sync.Mutex
	queue   []queuedHook
	wake    chan struct{} // a payload was queued
	closing chan struct{} // finish the queue, then return
	stop    chan struct{} // return now, killing the running hook
	done    chan struct{}
}

// queuedHook is one command line with its stdin.
type queuedHook struct {
	cmd   string
	stdin []byte
}

// newHookRunner runs cmd the way the CLI of look runs its hooks.
func newHookRunner(cmd, dir, look string) *hookRunner {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = "" // a --cwd that exists only on screen; hooks run where we run
	}
	// Claude, Codex and Copilot set CLAUDE_PROJECT_DIR, Copilot its own
	// variables too; OpenCode's plugin runs the command in OpenCode's
	// environment.
	var env []string
	switch look {
	case LookOpenCode:
	case LookCopilot:
		env = []string{"CLAUDE_PROJECT_DIR=" + dir, "COPILOT_CLI=1", "COPILOT_PROJECT_DIR=" + dir, "COPILOT_CLI_BINARY_VERSION=" + copilotVersion}
	default:
		env = []string{"CLAUDE_PROJECT_DIR=" + dir}
	}
	return &hookRunner{
		cmd:     cmd,
		dir:     dir,
		env:     env,
		bare:    look == LookCopilot || look == LookOpenCode,
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

// Enqueue queues one payload; a non-empty arg is added to the command
// line, as the CLIs whose hook entries name their event do.
func (h *hookRunner) Enqueue(arg string, payload object) {
	if h.cmd == "" {
		return
	}
	b, err := payload.encode()
	if err != nil {
		return // payloads are built from plain values; this cannot fail
	}
	h.mu.Lock()
	if !h.bare {
		b = append(b, '\n')
	}
	cmd := h.cmd
	if arg != "" {
		cmd += " " + arg
	}
	h.queue = append(h.queue, queuedHook{cmd: cmd, stdin: b})
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

func (h *hookRunner) next() (queuedHook, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.queue) == 0 {
		return queuedHook{}, false
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
// environment inherited plus the CLI's variables, output discarded.
func (h *hookRunner) run(hook queuedHook) {
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	go func() {
		select {
		case <-h.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", hook.cmd)
	cmd.Dir = h.dir
	cmd.Env = append(os.Environ(), h.env...)
	cmd.Stdin = bytes.NewReader(hook.stdin)
	cmd.WaitDelay = time.Second
	_ = cmd.Run() // a failing hook does not concern Claude's screen
}
