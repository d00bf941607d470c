// Package screen is codeman's GNU screen backend. It owns everything that
// talks to screen sessions:
//
//   - addresses: Window and its canonical form screen:PID.name:N
//     (Address, ParseAddress), targets typed by a person
//     (screen:SESSION[:WINDOW] with a full name, a PID or a unique name;
//     STY and WINDOW for the caller's own window: ParseTarget), and
//     `screen -ls` (ListSessions, Sessions);
//   - the version check (4.1 or newer, for -Q queries);
//   - Poller, one per watched window: `-X hardcopy FILE` every
//     PollInterval into a private directory, waiting for the file because
//     -X returns before screen writes it; changed rows become output for
//     the stream detector (rows wrapped at the window's width joined into
//     one line) and the latest screen the snapshot; a closed window or an
//     ended session stops it with a reason;
//   - WindowTerminal, a respawn.Terminal per window: text through a
//     private file with `readbuf` and `paste .`, never `stuff` (which
//     rewrites $, ^ and \), a pause, Enter as `stuff \015` on its own, and
//     a check that the screen changed, with bounded retries;
//   - State, the file under $XDG_STATE_HOME/codeman that lists the windows
//     codeman controls, since screen windows have no user options.
//
// Decisions worth knowing:
//
//   - Multi-line text is wrapped in bracketed paste markers by codeman:
//     screen's paste turns newlines into carriage returns (Enter for
//     Claude Code) and screen 4.x neither tracks nor adds bracketed paste.
//     Claude Code always enables bracketed paste, so it reads the text as
//     one paste and keeps its newlines (pasteData).
//   - Every command carries -S PID.name and -p N. `eval` is never used: in
//     a session with a person attached it runs in the window they look at,
//     ignoring -p.
//   - -Q replies also flash on an attached person's message line, so
//     queries are kept to start-up, size changes and failures; the height
//     comes from the hardcopy itself. `readbuf` shows "Slurped N
//     characters" there too, once per prompt sent, and replaces the
//     session's paste buffer.
//   - Screen before 5.0 writes hardcopies with only the low byte of each
//     character. The decoder repairs the glyphs Claude Code draws (see
//     legacy.go), and the Codex CLI's composer chevron; every real screen
//     in testdata reads the same to the detector after the loss and the
//     repair. Screen 5 hardcopies are exact.
//   - A -Q query listens on a socket named after the session
//     (PID.name-queryA) for its reply, and every command to the session
//     probes the sockets whose names start with the session's. Two
//     queries at once find the socket taken ("There is already a screen
//     running on") or lose the reply; a -X meanwhile empties the query's
//     reply. ExecRunner keeps codeman's commands apart across processes
//     with one flock per session (by PID), exclusive for -Q and shared
//     for -X, and a query retries a few times, 20ms apart and doubling,
//     for what other programs and `screen -ls` do. The locks live in
//     /tmp/codeman-<euid>/screen-lock, a path that depends on the user
//     alone: the daemon and the command line may see different
//     XDG_RUNTIME_DIR or TMPDIR, and locks each found elsewhere would keep
//     nothing apart. /tmp/codeman-<euid> is also the runtime dir's last
//     fallback, so both dirs are made and checked the same way (0700,
//     ours, no symlinks); the check is repeated here rather than shared,
//     as this package imports nothing of the hooks backend. Lock waits
//     end with the caller's context, and after DefaultExecTimeout plus 2s
//     (lockSession).
//   - A window that was never attached is 80x24 and `width`/`height` need
//     a display, so a window's size is whatever its last display made it.
//   - screen rewrites "$VAR", "^X" and "\ooo" in -X arguments, file names
//     included, so the private directories refuse a TMPDIR with $, ^ or \.
//   - Windows are known by number, and screen gives a closed window's
//     number to the next new one. On Linux the poller also knows the
//     window's program (WindowProcess: the screen process's child whose
//     environment has WINDOW=N, with its start time) and stops when the
//     number comes to run another one (ErrWindowReplaced); StillRuns
//     tells whether a window still runs a program recorded before, or it
//     exited (ExitedError) or another took its number. WINDOW is set
//     when a program starts, so windows renumbered with `number` are not
//     followed; elsewhere a window replaced between two polls is not
//     noticed.
//
// This package imports respawn (for Terminal and Screen) and
// internal/childenv (the environment of its screen commands) and nothing
// else of codeman; it must not import the daemon, the CLI, or the tmux and
// hooks backends.
package screen
