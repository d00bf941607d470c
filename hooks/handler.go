package hooks

import (
	"io"
	"time"

	"github.com/codeman-dev/codeman/hooks/spool"
)

// The hook handler and the marker protocol live in package spool, which
// the dedicated handler program links alone; these are its names as the
// rest of codeman knows them.

// Marker is what the hook handler keeps of one hook event.
type Marker = spool.Marker

// Limits of the hook handler and the spool.
const (
	MaxHookInput         = spool.MaxInput      // largest event JSON read: 1 MiB
	HookReadTimeout      = spool.ReadTimeout   // wait for stdin: 2s
	MaxSpoolMarkers      = spool.MaxMarkers    // most markers a prune leaves: 256
	DefaultMaxMarkerSize = spool.MaxMarkerSize // largest marker the watcher reads: 64 KiB
)

// Reasons Handle writes no marker.
var (
	ErrInsideCheck   = spool.ErrInsideCheck
	ErrNoPane        = spool.ErrNoPane
	ErrInputTooLarge = spool.ErrInputTooLarge
	ErrInputTimeout  = spool.ErrInputTimeout
)

// Handle is `codeman hook` and codeman-hook: it writes one hook event read
// from in as a marker for the caller's pane (spool.Handle).
func Handle(in io.Reader, env func(string) string, now time.Time) (string, error) {
	return spool.Handle(in, env, now)
}

// HandleEvent is Handle for a hook whose command line named its event,
// which the marker takes when the payload names none
// (spool.HandleEvent).
func HandleEvent(in io.Reader, env func(string) string, now time.Time, event string) (string, error) {
	return spool.HandleEvent(in, env, now, event)
}

// PaneFromEnv returns the canonical address of the pane or window the
// calling process runs in (spool.PaneFromEnv).
func PaneFromEnv(env func(string) string) (pane string, ok bool) {
	return spool.PaneFromEnv(env)
}

// RuntimeDir returns codeman's private runtime dir, creating and checking
// it (spool.RuntimeDir). The daemon keeps its socket there.
func RuntimeDir(env func(string) string) (string, error) { return spool.RuntimeDir(env) }

// SpoolDir returns the dir hook markers are written to, creating and
// checking it (spool.Dir).
func SpoolDir(env func(string) string) (string, error) { return spool.Dir(env) }
