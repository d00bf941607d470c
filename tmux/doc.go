// Package tmux is codeman's tmux backend. It owns everything that talks
// to a tmux server:
//
//   - the control-mode protocol (Parser, AppendDecoded): %output and
//     %extended-output decoded from octal escapes to raw bytes, reply
//     blocks matched by their %begin triple, %pause, %exit and the other
//     notifications;
//   - Client, one `tmux -C attach-session -f ignore-size,pause-after=N`
//     per watched session: per-pane output to subscribers, %pause answered
//     with refresh-client -A, reconnects with backoff, and capture-pane
//     polling when control mode keeps failing (Mode says which); the
//     stream is read in shared 25 ms slots while output trickles in
//     (pacedReader), which is most of what keeps a watching daemon cheap;
//   - Server: version check, pane resolution (%3, work:1.0, work:1) with
//     the server's version in the same read, listing panes with codeman's
//     @codeman and @codeman-state options, and pane user options; the
//     ...With functions do the same through any Runner, such as a Client,
//     whose control connection answers a command for a fraction of a tmux
//     process (Start brings it up before it returns);
//   - PaneTerminal, a respawn.Terminal per pane: send-keys -l for text,
//     Enter as its own command after a pause, load-buffer + paste-buffer -p
//     for multi-line text, and a check that the screen changed;
//   - StateWriter, which keeps @codeman-state current without blocking.
//
// Every tmux process runs with -S SOCKET (never the default server by
// accident), -u, no TMUX or TMUX_PANE in its environment, and a timeout.
// Panes are targeted only by %id. Canonical pane addresses are
// tmux:SOCKET:%ID (PaneInfo.Address, ParseAddress).
//
// github.com/GianlucaP106/gotmux is used only to find the tmux binary
// (Installed): its commands take no context, so they could hang on a
// wedged server, and its list parser panics on values that contain its
// field separator.
//
// This package imports respawn (for the Terminal interface) and
// internal/childenv (the environment of its tmux commands) and nothing else
// of codeman; it must not import the daemon, the CLI or the screen and
// hooks backends. Test helpers live in internal/rig/tmuxtest, which does
// not import this package.
package tmux
