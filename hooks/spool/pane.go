package spool

import "strings"

// PaneFromEnv returns the canonical address of the pane or window the
// calling process runs in: tmux:<socket>:<%id> from TMUX_PANE and the socket
// path in TMUX, else screen:<STY>:<WINDOW> for GNU screen. ok is false
// outside both.
//
// When both are set (screen inside tmux, or tmux inside screen), tmux wins:
// its variables name one pane exactly, while screen's WINDOW is inherited by
// everything started below it.
func PaneFromEnv(env func(string) string) (pane string, ok bool) {
	if p, ok := tmuxPane(env("TMUX"), env("TMUX_PANE")); ok {
		return p, true
	}
	return screenWindow(env("STY"), env("WINDOW"))
}

func tmuxPane(tmux, paneID string) (string, bool) {
	// TMUX is "<socket path>,<server pid>,<session id>"; a socket path with a
	// comma in it cannot be told apart, and tmux itself cuts at the first one.
	socket, _, _ := strings.Cut(tmux, ",")
	if !strings.HasPrefix(socket, "/") || !isNumberAfter(paneID, "%") {
		return "", false
	}
	return "tmux:" + socket + ":" + paneID, true
}

func screenWindow(sty, window string) (string, bool) {
	if sty == "" || strings.Contains(sty, ":") || !isNumberAfter(window, "") {
		return "", false
	}
	return "screen:" + sty + ":" + window, true
}

// isNumberAfter reports whether s is prefix followed by one or more digits.
func isNumberAfter(s, prefix string) bool {
	digits, ok := strings.CutPrefix(s, prefix)
	if !ok || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
