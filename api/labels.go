package api

import (
	"path/filepath"
	"slices"
	"strings"
)

// ServerLabels names the tmux servers of the panes at addrs when there is
// more than one, so that s1:0.0 on one server is told from s1:0.0 on
// another: "[name]" (the socket's name, as -L gives it), or "[path]" where
// two names are alike. It maps each socket to its label; it is empty when
// the panes are on one server or none.
func ServerLabels(addrs []string) map[string]string {
	var sockets []string
	names := map[string]int{}
	for _, a := range addrs {
		if s := TmuxSocket(a); s != "" && !slices.Contains(sockets, s) {
			sockets = append(sockets, s)
			names[filepath.Base(s)]++
		}
	}
	if len(sockets) < 2 {
		return nil
	}
	labels := make(map[string]string, len(sockets))
	for _, s := range sockets {
		labels[s] = "[" + filepath.Base(s) + "]"
		if names[filepath.Base(s)] > 1 {
			labels[s] = "[" + s + "]"
		}
	}
	return labels
}

// TmuxSocket returns the socket of a tmux pane address, "" for others.
func TmuxSocket(addr string) string {
	rest, ok := strings.CutPrefix(addr, "tmux:")
	if i := strings.LastIndexByte(rest, ':'); ok && i > 0 {
		return rest[:i]
	}
	return ""
}
