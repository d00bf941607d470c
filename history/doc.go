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
// before the next append. Close writes what is queued. A write that fails
// (a full disk, the dir replaced by a file) loses its record and stands
// in Status, with when it was first met, until every pane that failed has
// written again; OnStatus hears of each change once. An open file whose
// path no longer leads to it is opened again, so no record goes to a file
// the dir no longer holds.
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
// Reading. Each streams the records of a pane or of all, merged by time,
// in bounded memory whatever the files' size: one open file, a buffer and
// one record per pane. It skips and counts the lines that are longer than
// MaxLine or are not records; Read collects what Each streams. Pruning
// parses lines only up to the first young one and copies the rest.
//
// The package imports respawn only; the daemon feeds it, the CLI reads it.
package history
