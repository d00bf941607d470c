package tmux

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// PaneInfo describes one pane. Pane ids restart when the server restarts,
// so a pane's identity is (Server.Socket, ServerPID, ID).
type PaneInfo struct {
	Server    Server
	ID        string // "%3"
	Session   string // session name
	Window    string // window index, as written in a target (work:1.0)
	Index     int    // pane index in its window
	Command   string // pane_current_command
	PID       int    // pid of the pane's first process
	Dead      bool   // the program exited and remain-on-exit kept the pane
	Width     int
	Height    int
	ServerPID int // #{pid}
	// Version is the server's #{version}, which ResolvePane reads with
	// the rest; empty elsewhere, and from servers too old to report it.
	Version string
}

// Address returns the canonical address, e.g. tmux:/tmp/tmux-0/default:%3.
func (p PaneInfo) Address() string { return "tmux:" + p.Server.Socket + ":" + p.ID }

// Target returns the human form session:window.index.
func (p PaneInfo) Target() string {
	return fmt.Sprintf("%s:%s.%d", p.Session, p.Window, p.Index)
}

// fieldSep separates format fields; tmux names never contain it. tmux 3.4
// and 3.5 print it as \037 (splitFields).
const fieldSep = "\x1f"

// paneFields are the formats behind PaneInfo, in parsePaneInfo's order.
// The free-text fields come last but one so that a stray separator in
// them is caught by the field count.
var paneFields = []string{
	"#{pane_id}", "#{window_index}", "#{pane_index}", "#{pane_pid}", "#{pane_dead}",
	"#{pane_width}", "#{pane_height}", "#{pid}", "#{session_name}", "#{pane_current_command}",
}

func paneFormat(extra ...string) string {
	return strings.Join(append(append([]string(nil), paneFields...), extra...), fieldSep)
}

// parsePaneInfo reads one line printed with paneFormat(extra...) and
// returns the values of the extra fields too.
func (s Server) parsePaneInfo(line string, extra int) (PaneInfo, []string, error) {
	f, ok := splitFields(line, len(paneFields)+extra)
	if !ok {
		return PaneInfo{}, nil, fmt.Errorf("read pane fields from %q: want %d fields separated by \\x1f (a pane's command or option holds the separator)", line, len(paneFields)+extra)
	}
	nums := make([]int, 5)
	for i, v := range []string{f[2], f[3], f[5], f[6], f[7]} {
		n, err := strconv.Atoi(v)
		if err != nil {
			return PaneInfo{}, nil, fmt.Errorf("read pane fields from %q: %q is not a number", line, v)
		}
		nums[i] = n
	}
	p := PaneInfo{
		Server: s, ID: f[0], Window: f[1], Index: nums[0], PID: nums[1], Dead: f[4] == "1",
		Width: nums[2], Height: nums[3], ServerPID: nums[4], Session: f[8], Command: f[9],
	}
	return p, f[len(paneFields):], nil
}

// ResolvePane finds the pane a target names: "%3", "session:window.pane",
// "session:window" (its active pane) or "session". An empty target is an
// error; callers pass $TMUX_PANE for "my own pane" (see Locate).
func (s Server) ResolvePane(ctx context.Context, target string) (PaneInfo, error) {
	if target == "" {
		return PaneInfo{}, noTarget(s)
	}
	// display-message falls back to the current pane when its target is
	// wrong (tmux 3.3: it exits 0 and prints another pane), so list-panes,
	// which fails on a bad target, checks the target first in the same
	// invocation; its output lines are empty and the last line is ours.
	t := argvWord(target)
	out, err := s.exec(ctx, nil, "list-panes", "-t", t, "-F", "", ";",
		"display-message", "-p", "-t", t, paneFormat(versionFormat))
	if err != nil {
		return PaneInfo{}, noPaneError(s, target, err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return s.resolved(target, lines[len(lines)-1])
}

// ResolvePaneWith is ResolvePane through r, a runner of commands on s such
// as a Client's control connection (of any session of s): the check and
// the read are two commands there, each a fraction of a tmux process.
func ResolvePaneWith(ctx context.Context, r Runner, s Server, target string) (PaneInfo, error) {
	if target == "" {
		return PaneInfo{}, noTarget(s)
	}
	if _, err := r.Run(ctx, "list-panes", "-t", target, "-F", ""); err != nil {
		return PaneInfo{}, noPaneError(s, target, err)
	}
	out, err := r.Run(ctx, "display-message", "-p", "-t", target, paneFormat(versionFormat))
	if err != nil {
		return PaneInfo{}, noPaneError(s, target, err)
	}
	return s.resolved(target, strings.TrimRight(out, "\n"))
}

// versionFormat is the extra field of ResolvePane: the server's version.
const versionFormat = "#{version}"

func noTarget(s Server) error {
	return fmt.Errorf("resolve pane on tmux server %s: no target given (TMUX_PANE is empty outside tmux)", s.Socket)
}

// resolved reads the line ResolvePane printed for target.
func (s Server) resolved(target, line string) (PaneInfo, error) {
	p, extra, err := s.parsePaneInfo(line, 1)
	if err != nil {
		return PaneInfo{}, fmt.Errorf("resolve pane %s on tmux server %s: %w", target, s.Socket, err)
	}
	p.Version = extra[0]
	return p, nil
}

// NoPaneError says that a target names no pane on a server.
type NoPaneError struct {
	Target string
	Socket string
	Reason string // tmux's words, e.g. "can't find window: 5"
}

func (e *NoPaneError) Error() string {
	msg := fmt.Sprintf("no pane %s on tmux server %s", e.Target, e.Socket)
	if e.Reason != "" && e.Reason != "can't find pane: "+e.Target {
		msg += " (" + e.Reason + ")"
	}
	return msg
}

func (e *NoPaneError) Unwrap() error { return ErrNoPane }

// noPaneError turns tmux's "can't find ..." into a NoPaneError and leaves
// other errors (no server, timeouts) as they are.
func noPaneError(s Server, target string, err error) error {
	var ce *CommandError
	if errors.As(err, &ce) && errors.Is(ce, ErrNoPane) {
		return &NoPaneError{Target: target, Socket: s.Socket, Reason: ce.Message}
	}
	return fmt.Errorf("resolve pane %s: %w", target, err)
}
