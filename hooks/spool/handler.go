package spool

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Limits of the hook handler. Claude Code waits for every hook it runs, and
// PreToolUse runs before every tool call, so the handler must never stall.
const (
	// MaxInput is the largest event JSON the handler reads: 1 MiB.
	// Anything bigger is ignored, not cut and parsed.
	MaxInput = 1 << 20
	// ReadTimeout bounds the wait for stdin: 2s.
	ReadTimeout = 2 * time.Second
)

// EnvCheck is set to 1 in the environment of codeman's AI checks
// (claude -p), whose own hooks must not feed the controller.
const EnvCheck = "CODEMAN_CHECK"

// Reasons Handle writes no marker.
var (
	ErrInsideCheck   = errors.New("running inside an AI check")
	ErrNoPane        = errors.New("not inside a tmux pane or screen window")
	ErrInputTooLarge = fmt.Errorf("hook input larger than %d bytes", MaxInput)
	ErrInputTimeout  = fmt.Errorf("no hook input within %s", ReadTimeout)
)

// Handle is the hook handler: it reads one hook event's JSON from in, keeps
// what the watcher needs, and writes it as a marker for the caller's pane
// into the spool dir, stamped with now, in place of the marker of the same
// pane and kind before it; now and then it prunes the spool dir. It returns
// the marker's path, or an error saying why there is none. The caller must
// stay silent either way: Claude Code shows a hook's output to the user.
//
// It never contacts the daemon, so it costs the same whether a controller
// watches the pane or not.
func Handle(in io.Reader, env func(string) string, now time.Time) (string, error) {
	return HandleEvent(in, env, now, "")
}

// HandleEvent is Handle for a hook whose command line names its event
// (the handler's first argument): event is the marker's event when the
// payload names none, as the GitHub Copilot CLI's mostly do
// (ParsePayloadAs).
func HandleEvent(in io.Reader, env func(string) string, now time.Time, event string) (string, error) {
	if v := env(EnvCheck); v != "" && v != "0" {
		return "", ErrInsideCheck
	}
	pane, ok := PaneFromEnv(env)
	if !ok {
		return "", ErrNoPane
	}
	data, err := readInput(in, MaxInput, ReadTimeout)
	if err != nil {
		return "", err
	}
	m, err := ParsePayloadAs(data, event)
	if err != nil {
		return "", err
	}
	m.Pane, m.At = pane, now
	dir, err := Dir(env)
	if err != nil {
		return "", err
	}
	path, err := writeMarker(dir, m)
	if err != nil {
		return "", err
	}
	maybePrune(dir, now)
	return path, nil
}

// readInput reads all of r unless it exceeds limit bytes or takes longer
// than timeout. Stdin from Claude is a blocking pipe, which has no read
// deadline, so the read runs in a goroutine; on timeout that goroutine is
// left behind, which is fine in a process that exits right after.
func readInput(r io.Reader, limit int64, timeout time.Duration) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, limit+1))
		done <- result{data, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("read hook input: %w", res.err)
		}
		if int64(len(res.data)) > limit {
			return nil, ErrInputTooLarge
		}
		return res.data, nil
	case <-timer.C:
		return nil, ErrInputTimeout
	}
}
