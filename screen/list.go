package screen

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Session is one line of `screen -ls`.
type Session struct {
	Name  string // as screen names it: PID.name, e.g. 12345.pts-0.host
	PID   int
	State string // what screen says in the last parentheses: Detached, Attached, Multi, attached, Dead ???, ...
}

// ShortName returns the name without the PID: "work" for 12345.work.
func (s Session) ShortName() string {
	_, name, _ := strings.Cut(s.Name, ".")
	return name
}

// Live reports whether the session can take commands. Dead sockets,
// sessions of other users without access (Private) and unreachable ones
// cannot.
func (s Session) Live() bool {
	switch s.State {
	case "Attached", "Detached", "Multi, attached", "Multi, detached":
		return true
	}
	return false
}

// ListSessions returns the names (PID.name) of the live sessions that
// `screen -ls` lists.
func ListSessions(ctx context.Context) ([]string, error) {
	sessions, err := Sessions(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range sessions {
		if s.Live() {
			names = append(names, s.Name)
		}
	}
	return names, nil
}

// Sessions returns every session `screen -ls` lists, dead ones included.
func Sessions(ctx context.Context) ([]Session, error) {
	return listSessions(ctx, ExecRunner{})
}

func listSessions(ctx context.Context, r Runner) ([]Session, error) {
	out, err := r.Run(ctx, "-ls")
	if err != nil {
		return nil, fmt.Errorf("list screen sessions: %w", err)
	}
	sessions, err := parseList(out)
	if err != nil {
		return nil, fmt.Errorf("list screen sessions: %w", err)
	}
	return sessions, nil
}

// parseList reads `screen -ls` output. Its exit status is useless (1 when
// nothing is listed, and on some versions even when something is), so
// success is read from the text: session lines start with a tab, and an
// empty list says "No Sockets found".
//
//	There are screens on:
//		12345.pts-0.host	(11/29/2026 08:40:18 PM)	(Detached)
//		12346.work	(Multi, attached)
//		12347.old	(Dead ???)
//	Remove dead screens with 'screen -wipe'.
//	3 Sockets in /run/screen/S-user.
func parseList(out string) ([]Session, error) {
	var sessions []Session
	understood := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "\t"):
			s, err := parseListLine(line)
			if err != nil {
				return nil, err
			}
			sessions = append(sessions, s)
		case strings.HasPrefix(line, "No Sockets found"),
			strings.HasPrefix(line, "There is a screen on"),
			strings.HasPrefix(line, "There are screens on"):
			understood = true
		}
	}
	if len(sessions) == 0 && !understood {
		return nil, fmt.Errorf("read screen -ls output %q: no session lines and no \"No Sockets found\"", firstLine(out))
	}
	return sessions, nil
}

// parseListLine reads "\tPID.name\t(date)\t(state)"; the date is missing
// before screen 4.4.
func parseListLine(line string) (Session, error) {
	fields := strings.Split(strings.TrimPrefix(line, "\t"), "\t")
	name := fields[0]
	pidText, short, ok := strings.Cut(name, ".")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 || short == "" {
		return Session{}, fmt.Errorf("read screen -ls line %q: %q is not PID.name", strings.TrimSpace(line), name)
	}
	s := Session{Name: name, PID: pid}
	if len(fields) > 1 {
		last := fields[len(fields)-1]
		s.State = strings.TrimSuffix(strings.TrimPrefix(last, "("), ")")
	}
	return s, nil
}
