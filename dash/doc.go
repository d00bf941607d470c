// Package dash is `codeman dash`: a full-screen terminal view of every pane
// the daemon has enabled, on every tmux server and GNU screen session, kept
// current by the daemon's event stream rather than by polling it.
//
// One row per pane, people first: panes that need a person, then panes
// codeman or Claude is working in, idle ones, ones waiting out a usage
// limit, paused ones, and enabled panes the daemon could not adopt. From a
// row a person jumps to the pane (tmux: the dash's own client is switched
// to it; screen: the command that reaches it is shown), reads why the
// controller believes what it believes, pauses or resumes it, or detaches
// it.
//
// Most of what a row shows is the pane's: its target, the agent's question,
// the reasons of decisions made from its screen. Each such string is shown
// as one line through safetext.Line, before the dash's own styles go
// around it, so a bidi override or a zero-width character is spelled out
// rather than reordering or hiding what a person is asked about.
//
// The Model is pure: it changes only in Update, reads the time through
// Options.Now, and does its I/O (requests to the daemon, tmux commands) in
// the tea.Cmds it returns, so its tests drive it with messages and read
// View without a terminal. Run adds the terminal and the event stream:
// follow reads /v1/events and reconnects with backoff while the daemon is
// away. An event marks its pane for a refresh; refreshes go out at most
// every flushEvery, one request per pane, or one list request when many
// panes or the set of panes changed. A tick every second re-renders the
// durations and asks the daemon nothing.
//
// It reaches the daemon through package api only (Source, which an
// *api.Client is), and links no daemon.
package dash
