package screen

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// addressPrefix starts every screen address and target.
const addressPrefix = "screen:"

// Window is one window of a screen session. Windows are named by number
// only: a window's title changes as its program runs (Claude Code sets
// it), and numbers are what -p takes without ambiguity.
type Window struct {
	Session string // the full session name, PID.name, as screen -ls prints it
	Window  string // the window number
}

// Address returns the canonical address, e.g. screen:12345.pts-0.host:2.
func (w Window) Address() string { return addressPrefix + w.Session + ":" + w.Window }

func (w Window) String() string { return w.Address() }

// ParseAddress splits an address "screen:PID.name:WINDOW" and writes its
// numbers in canonical form, so w.Address() is the canonical address.
func ParseAddress(addr string) (Window, error) {
	rest, ok := strings.CutPrefix(addr, addressPrefix)
	i := strings.LastIndexByte(rest, ':')
	if !ok || i < 0 {
		return Window{}, fmt.Errorf("parse screen address %q: want screen:PID.NAME:WINDOW", addr)
	}
	w := Window{Session: rest[:i], Window: rest[i+1:]}
	if !isNumber(w.Window) {
		return Window{}, fmt.Errorf("parse screen address %q: window %q is not a number", addr, w.Window)
	}
	if !isFullSessionName(w.Session) {
		return Window{}, fmt.Errorf("parse screen address %q: session %q is not PID.NAME such as 12345.pts-0.host", addr, w.Session)
	}
	// One window, one address: screen takes "-p 01" for window 1 and the
	// PID with leading zeros, so both are written without them.
	pid, name, _ := strings.Cut(w.Session, ".")
	w.Session = canonicalNumber(pid) + "." + name
	w.Window = canonicalNumber(w.Window)
	return w, nil
}

// canonicalNumber writes a string of digits (isNumber) without leading zeros.
func canonicalNumber(s string) string {
	n, _ := strconv.Atoi(s)
	return strconv.Itoa(n)
}

// ParseTarget finds the window a command-line user means:
// "screen:SESSION[:WINDOW]", where SESSION is a full name
// (12345.pts-0.host), a PID (12345) or a unique name (work, for
// 12345.work), and WINDOW a number that defaults to the session's current
// window. An empty arg (or "screen" alone) means the caller's own window,
// from $STY and $WINDOW in env. It asks screen whether the window exists,
// each call bounded by DefaultExecTimeout.
func ParseTarget(arg string, env func(string) string) (Window, error) {
	return ResolveTarget(context.Background(), ExecRunner{}, arg, env)
}

// ResolveTarget is ParseTarget with a context and a Runner.
func ResolveTarget(ctx context.Context, r Runner, arg string, env func(string) string) (Window, error) {
	if arg == "" || arg == "screen" || arg == addressPrefix {
		return targetFromEnv(ctx, r, env)
	}
	rest, ok := strings.CutPrefix(arg, addressPrefix)
	if !ok || rest == "" {
		return Window{}, fmt.Errorf("parse screen target %q: want screen:SESSION[:WINDOW], e.g. screen:work:0", arg)
	}
	spec, win := rest, ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && isNumber(rest[i+1:]) {
		spec, win = rest[:i], rest[i+1:]
	}
	sessions, err := listSessions(ctx, r)
	if err != nil {
		return Window{}, err
	}
	s, err := matchSession(spec, sessions)
	if err != nil {
		return Window{}, fmt.Errorf("resolve screen target %q: %w", arg, err)
	}
	return checkWindow(ctx, r, Window{Session: s.Name, Window: win})
}

// targetFromEnv returns the window the caller runs in.
func targetFromEnv(ctx context.Context, r Runner, env func(string) string) (Window, error) {
	sty, win := env("STY"), env("WINDOW")
	if sty == "" {
		return Window{}, fmt.Errorf("find own screen window: STY is not set, so not inside GNU screen; name one such as screen:work:0")
	}
	if !isFullSessionName(sty) || !isNumber(win) {
		return Window{}, fmt.Errorf("find own screen window: STY=%q WINDOW=%q is not PID.NAME and a window number", sty, win)
	}
	return checkWindow(ctx, r, Window{Session: sty, Window: win})
}

// checkWindow asks the session for w's number; an empty number means the
// session's current window.
func checkWindow(ctx context.Context, r Runner, w Window) (Window, error) {
	n, err := windowNumber(ctx, r, w)
	if err != nil {
		return Window{}, err
	}
	w.Window = n
	return w, nil
}

// windowNumber runs `-Q number`, which answers "3 (title)".
func windowNumber(ctx context.Context, r Runner, w Window) (string, error) {
	out, err := query(ctx, r, w, "number")
	if err != nil {
		return "", err
	}
	n, _, _ := strings.Cut(strings.TrimSpace(out), " ")
	if !isNumber(n) {
		return "", fmt.Errorf("read window number of %s: unexpected reply %q", w.Session, strings.TrimSpace(out))
	}
	return n, nil
}

// matchSession picks the live session spec names: a full name, a PID or
// a name without the PID that only one session has.
func matchSession(spec string, sessions []Session) (Session, error) {
	var live []Session
	for _, s := range sessions {
		if s.Name == spec && !s.Live() {
			return Session{}, fmt.Errorf("session %s is %s (screen -wipe removes dead ones)", s.Name, strings.ToLower(s.State))
		}
		if s.Live() {
			live = append(live, s)
		}
	}
	var found []Session
	for _, s := range live {
		if s.Name == spec || strconv.Itoa(s.PID) == spec {
			return s, nil
		}
		if s.ShortName() == spec {
			found = append(found, s)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return Session{}, fmt.Errorf("%q names %d sessions: %s; give the PID too", spec, len(found), sessionNames(found))
	case len(live) == 0:
		return Session{}, fmt.Errorf("%w %q: none is running", ErrNoSession, spec)
	}
	return Session{}, fmt.Errorf("%w %q; running: %s", ErrNoSession, spec, sessionNames(live))
}

func sessionNames(ss []Session) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// isFullSessionName reports whether s looks like PID.name.
func isFullSessionName(s string) bool {
	pid, name, ok := strings.Cut(s, ".")
	return ok && isNumber(pid) && name != ""
}

func isNumber(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
