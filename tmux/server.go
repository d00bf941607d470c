package tmux

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Server is one tmux server, named by the path of its socket. Every
// command runs with -S Socket, so the default server is never used by
// accident.
type Server struct {
	Socket string // absolute path, e.g. /tmp/tmux-1000/default
}

// ServerFromEnv returns the server named by a $TMUX value
// ("socket,server pid,session index").
func ServerFromEnv(tmuxEnv string) (Server, error) {
	socket, _, _ := strings.Cut(tmuxEnv, ",")
	if socket == "" {
		return Server{}, fmt.Errorf("read TMUX: not set, so not inside tmux")
	}
	if !filepath.IsAbs(socket) {
		return Server{}, fmt.Errorf("read TMUX %q: socket path is not absolute", tmuxEnv)
	}
	return Server{Socket: socket}, nil
}

// DefaultServer returns the server that a plain `tmux` would use:
// "default" in $TMUX_TMPDIR (else /tmp) under tmux-UID. Callers choose it
// deliberately, when neither $TMUX nor an address names a server.
func DefaultServer(getenv func(string) string) Server {
	dir := getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return Server{Socket: filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), "default")}
}

// String returns the socket path.
func (s Server) String() string { return s.Socket }

// ParseAddress splits a canonical pane address "tmux:SOCKET:%ID" into its
// server and pane id.
func ParseAddress(addr string) (Server, string, error) {
	rest, ok := strings.CutPrefix(addr, "tmux:")
	if !ok {
		return Server{}, "", fmt.Errorf("parse pane address %q: want tmux:SOCKET:%%ID", addr)
	}
	// The socket path may itself contain ':'; the pane id never does.
	i := strings.LastIndexByte(rest, ':')
	if i < 0 {
		return Server{}, "", fmt.Errorf("parse pane address %q: want tmux:SOCKET:%%ID", addr)
	}
	socket, pane := rest[:i], rest[i+1:]
	if !filepath.IsAbs(socket) {
		return Server{}, "", fmt.Errorf("parse pane address %q: socket path %q is not absolute", addr, socket)
	}
	if !validPaneID([]byte(pane)) {
		return Server{}, "", fmt.Errorf("parse pane address %q: %q is not a pane id such as %%3", addr, pane)
	}
	return Server{Socket: socket}, pane, nil
}

// PaneAddress returns the canonical address of the pane target names
// without asking tmux, when target names it by id: a canonical address
// (tmux:SOCKET:%ID), a pane id (%3), or nothing for the caller's own pane
// ($TMUX_PANE), on the server Locate would use. ok is false when only tmux
// can tell (work:1.0, work:1), or when the server's socket does not exist;
// Locate then resolves target or says what is wrong. The pane itself is not
// checked: whoever uses the address finds out whether it exists.
func PaneAddress(target string, getenv func(string) string) (addr string, ok bool) {
	var srv Server
	if strings.HasPrefix(target, "tmux:") {
		s, pane, err := ParseAddress(target)
		if err != nil {
			return "", false
		}
		srv, target = s, pane
	} else {
		srv = DefaultServer(getenv)
		if env := getenv("TMUX"); env != "" {
			s, err := ServerFromEnv(env)
			if err != nil {
				return "", false
			}
			srv = s
		}
		if target == "" {
			target = getenv("TMUX_PANE")
		}
	}
	if !validPaneID([]byte(target)) {
		return "", false
	}
	real, err := srv.Canonical()
	if err != nil {
		return "", false
	}
	return "tmux:" + real.Socket + ":" + target, true
}

// Locate finds the pane a command-line user means. target is a canonical
// address (tmux:SOCKET:%ID), a tmux target (%3, work:1.0, work:1) or
// empty for the caller's own pane ($TMUX_PANE). The server comes from the
// address, else from $TMUX, else it is the default server; its socket is
// named by its real path (CanonicalSocket), so the address Locate returns
// is canonical.
func Locate(ctx context.Context, target string, getenv func(string) string) (PaneInfo, error) {
	if strings.HasPrefix(target, "tmux:") {
		srv, pane, err := ParseAddress(target)
		if err != nil {
			return PaneInfo{}, err
		}
		if srv, err = srv.Canonical(); err != nil {
			return PaneInfo{}, fmt.Errorf("locate pane %s: %w", target, err)
		}
		return srv.ResolvePane(ctx, pane)
	}
	srv := DefaultServer(getenv)
	if env := getenv("TMUX"); env != "" {
		s, err := ServerFromEnv(env)
		if err != nil {
			return PaneInfo{}, err
		}
		srv = s
	}
	// A missing socket is left for ResolvePane to report as no server.
	if real, err := srv.Canonical(); err == nil {
		srv = real
	}
	if target == "" {
		target = getenv("TMUX_PANE")
		if target == "" {
			return PaneInfo{}, fmt.Errorf("locate pane: none given and TMUX_PANE is not set; run inside tmux or name one such as %%3 or work:1.0")
		}
	}
	return srv.ResolvePane(ctx, target)
}
