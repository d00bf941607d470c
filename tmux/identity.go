package tmux

import (
	"fmt"
	"path/filepath"
)

// A pane has one canonical address, tmux:SOCKET:%ID, whatever path a
// caller reached its server by. tmux itself names a server by the real
// path of its socket (it resolves TMUX_TMPDIR before it listens, so $TMUX
// and #{socket_path} carry it): /private/tmp on macOS where a shell says
// /tmp, or a tidy path where someone typed "//" or "./". Two spellings of
// one pane would get two controllers, so every address is made canonical
// before it is used as a key.

// CanonicalSocket returns the real path of a server socket: absolute,
// cleaned, every symlink resolved. The socket must exist.
func CanonicalSocket(socket string) (string, error) {
	if !filepath.IsAbs(socket) {
		return "", fmt.Errorf("resolve tmux socket %q: path is not absolute", socket)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(socket))
	if err != nil {
		return "", fmt.Errorf("resolve tmux socket: %w", err)
	}
	return real, nil
}

// Canonical returns the server named by the real path of its socket.
func (s Server) Canonical() (Server, error) {
	socket, err := CanonicalSocket(s.Socket)
	if err != nil {
		return Server{}, err
	}
	return Server{Socket: socket}, nil
}

// CanonicalAddress returns the canonical form of a pane address
// tmux:SOCKET:%ID: the socket's real path and the pane id as given.
func CanonicalAddress(addr string) (string, error) {
	srv, id, err := ParseAddress(addr)
	if err != nil {
		return "", err
	}
	if srv, err = srv.Canonical(); err != nil {
		return "", fmt.Errorf("pane address %s: %w", addr, err)
	}
	return "tmux:" + srv.Socket + ":" + id, nil
}
