// Package history keeps what happened to each pane across daemon restarts:
// every event the daemon publishes (a controller's decisions, attach,
// detach, a pane not adopted) as one JSON line in a file of the pane, and
// the digest codeman report makes of them.
//
// Files. One file per pane under $XDG_STATE_HOME/codeman/history, named
// after the pane's canonical address with every byte but letters, digits,
// '_', '-' and a '.' that does not lead written as %XX (reversible, and
// each line names its pane too): tmux%3A%2Ftmp%2Ftmux-1000%2Fdefault%3A%253.jsonl.
// The file rotates when it would pass MaxSize: NAME.jsonl becomes
// NAME.jsonl.1, .1 becomes .2 and so on up to Keep, the oldest dropped.
// Lines older than MaxAge are dropped, and files left empty removed, when
// the writer opens and whenever a file rotates. Files are 0600 in a 0700
// dir, and never synced: a lost tail after a crash costs a few lines.
//
// Writes never wait: Write hands the record to one writer goroutine
// through a buffered channel and drops it, counted, when the buffer is
// full. A line cut by a kill mid-write is skipped by Read and cut off
// before the next append. Close writes what is queued.
//
// Schema (v1). Each line is one Record:
//
//	{"v":1,"at":"2026-12-01T17:43:15.2Z","pane":"tmux:/tmp/tmux-1000/default:%3","kind":"decision",
//	 "decision":{"at":…,"kind":"state","from":"watching","to":"confirming_idle","reason":"Stop hook"},"state":"confirming_idle"}
//
// v is the record version (1); at the event's time; pane the canonical
// address; kind decision, attach, detach, not-adopted, or a kind added
// later (needs-you and resolved are read by Report); decision the
// respawn.Decision of a decision; state the controller's state after the
// record as far as the writer knows it (empty after a detach and before
// the first state decision); reason the event's reason, for every kind
// but decision. Readers read the fields they know of any version and skip
// lines they cannot parse; a new version may add fields but never changes
// the meaning of these.
//
// The package imports respawn only; the daemon feeds it, the CLI reads it.
package history
