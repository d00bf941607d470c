package screen

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"
)

// Every -Q reply also shows on the message line of a person attached to
// the session, for a few seconds (screen 4.9). So codeman queries only
// when it must: when it starts watching a window, when the window's size
// seems to have changed, and when a hardcopy did not come.

// Tries of a query that another one got in the way of, and the wait
// before the second, doubling after each: 20, 40, 80, 160ms. ExecRunner
// keeps codeman's own commands from colliding; these are for screen
// commands other programs run, and for `screen -ls`, which probes the
// query's socket too.
const (
	queryAttempts  = 5
	queryFirstWait = 20 * time.Millisecond
)

// msgQueryTaken is what a query says when another query of the session
// holds the reply socket.
const msgQueryTaken = "There is already a screen running on"

// errQueryLost: another command to the session took the query's reply
// socket or its reply.
var errQueryLost = errors.New("another command to the session got in the way")

// realClock times the retries of queries.
var realClock = clockwork.NewRealClock()

// query runs `screen -S session -p window -Q cmd args...` and returns the
// reply, retried a few times when another command to the session got in
// the way. -Q waits for the session to answer, and the session handles
// commands in order, so a query also means that every earlier -X command
// to the session has been carried out. Every command queried here
// answers something, so an empty reply is a lost one.
func query(ctx context.Context, r Runner, w Window, cmd ...string) (string, error) {
	return queryRetrying(ctx, r, realClock, w, cmd...)
}

// queryRetrying is query with the clock that times its retries.
func queryRetrying(ctx context.Context, r Runner, clock clockwork.Clock, w Window, cmd ...string) (string, error) {
	wait := queryFirstWait
	for attempt := 1; ; attempt++ {
		out, err := queryOnce(ctx, r, w, cmd...)
		if !errors.Is(err, errQueryLost) {
			return out, err
		}
		if attempt == queryAttempts {
			return "", fmt.Errorf("%w (%d tries)", err, attempt)
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%w; stopped retrying: %w", err, ctx.Err())
		case <-clock.After(wait):
		}
		wait *= 2
	}
}

// queryOnce runs one query. A reply lost to another command is an error
// wrapping errQueryLost.
func queryOnce(ctx context.Context, r Runner, w Window, cmd ...string) (string, error) {
	args := []string{"-S", w.Session}
	if w.Window != "" {
		args = append(args, "-p", w.Window)
	}
	out, err := r.Run(ctx, append(append(args, "-Q"), cmd...)...)
	if err != nil {
		return "", err
	}
	out = stripDeadNotice(out)
	if err := replyError(w, out); err != nil {
		return "", fmt.Errorf("screen -Q %s: %w", cmd[0], err)
	}
	switch reply := strings.TrimSpace(out); {
	case reply == "" || strings.HasPrefix(reply, msgQueryTaken):
		return "", fmt.Errorf("screen -Q %s in session %s: %w: reply %q", cmd[0], w.Session, errQueryLost, strings.TrimSpace(firstLine(reply)))
	case strings.HasPrefix(reply, cmd[0]+" command "+msgNotAllowed) || strings.HasPrefix(reply, "-X: "):
		// Too old a screen, or a command it does not know: it says so on
		// stdout and may still exit 0.
		return "", fmt.Errorf("screen -Q %s in session %s: %s", cmd[0], w.Session, reply)
	}
	return out, nil
}

// windowSize asks for the window's size with `-Q info`, which answers
// "(1,7)/(100,30)+1024 +(+)flow UTF-8 0(title)": cursor, then size.
// A window keeps the size of the display that showed it last, and 80x24
// when none ever did.
func windowSize(ctx context.Context, r Runner, w Window) (width, height int, err error) {
	out, err := query(ctx, r, w, "info")
	if err != nil {
		return 0, 0, fmt.Errorf("read size of %s: %w", w.Address(), err)
	}
	width, height, err = parseInfoSize(out)
	if err != nil {
		return 0, 0, fmt.Errorf("read size of %s: %w", w.Address(), err)
	}
	return width, height, nil
}

// parseInfoSize reads the "/(W,H)" part of an info reply.
func parseInfoSize(info string) (int, int, error) {
	_, rest, ok := strings.Cut(info, "/(")
	size, _, ok2 := strings.Cut(rest, ")")
	ws, hs, ok3 := strings.Cut(size, ",")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || !ok2 || !ok3 || err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return 0, 0, fmt.Errorf("unexpected info reply %q: want (X,Y)/(WIDTH,HEIGHT) and more", strings.TrimSpace(info))
	}
	return w, h, nil
}
