package spool

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// Marker is what the hook handler keeps of one hook event: the fields the
// watcher needs, not the whole payload (a payload can carry whole files).
type Marker struct {
	Pane             string    `json:"pane"`                        // canonical address
	Event            string    `json:"event"`                       // hook_event_name, else the event the command line named
	NotificationType string    `json:"notification_type,omitempty"` // Notification
	Tool             string    `json:"tool_name,omitempty"`         // tool events
	Source           string    `json:"source,omitempty"`            // SessionStart
	Reason           string    `json:"reason,omitempty"`            // SessionEnd; OpenCode's error name, an idle's ended
	Error            string    `json:"error,omitempty"`             // StopFailure, Codex's PostModelRequest, Copilot's errorOccurred
	Status           string    `json:"status,omitempty"`            // Codex's PostModelRequest; OpenCode's session status, permission reply
	Message          string    `json:"message,omitempty"`           // Notification
	BackgroundTasks  []string  `json:"background_tasks,omitempty"`  // Stop: each task's status
	SessionID        string    `json:"session_id,omitempty"`
	AgentID          string    `json:"agent_id,omitempty"` // a subagent's event (Copilot)
	Cwd              string    `json:"cwd,omitempty"`
	Detail           string    `json:"detail,omitempty"` // what a tool call asks: a question, a command, a file
	At               time.Time `json:"at"`               // when the handler ran
}

const (
	// markerExt ends every marker's name; anything else in the spool dir
	// (hidden files: the handler's temp files, the prune stamp, markers the
	// watcher has claimed) is not a marker.
	markerExt = ".json"
	// maxFieldLen caps each kept string: a message is for logs, and a
	// marker has to stay far below the watcher's size cap.
	maxFieldLen = 512
	// MaxMarkerSize is the largest marker file the watcher reads: 64 KiB.
	MaxMarkerSize = 64 << 10
	// otherKind names the markers of events that carry no signal.
	otherKind = "other"
)

// markerName is the one name of every marker of a pane and kind:
// <hash of the pane>-<kind>.json. A new marker replaces the one before it
// of the same pane and kind, so the spool holds at most one per pane and
// kind however long no daemon consumes it; order across kinds is kept by
// the time each marker holds. The kind is the signal the watcher makes of
// the event, not the event's name: a PreToolUse for AskUserQuestion (a
// question) and a later one for Bash (work) are two markers.
func markerName(m Marker) string {
	kind := otherKind
	if k := m.Kind(); k != KindNone {
		kind = k.String()
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(m.Pane)) // never fails
	return fmt.Sprintf("%016x-%s%s", h.Sum64(), kind, markerExt)
}

// IsMarker reports whether the name of a spool dir entry is a finished
// marker's.
func IsMarker(name string) bool {
	return strings.HasSuffix(name, markerExt) && !strings.HasPrefix(name, ".")
}

// writeMarker writes m into dir as its pane and kind's marker: a temp file
// of its own renamed into place, so the watcher never sees a half-written
// one. When two handlers race for one name the later rename wins; both
// markers are of the same kind and moments apart. There is no fsync: a
// marker matters for seconds, and after a crash it would be stale anyway.
func writeMarker(dir string, m Marker) (string, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("encode marker: %w", err)
	}
	name := markerName(m)
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.%d-%016x%s", name, os.Getpid(), rand.Uint64(), tempExt))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return "", fmt.Errorf("create marker: %w", err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	final := filepath.Join(dir, name)
	if werr == nil {
		werr = os.Rename(tmp, final)
	}
	if werr != nil {
		_ = os.Remove(tmp) // best effort; the write error is the one to report
		return "", fmt.Errorf("write marker: %w", werr)
	}
	return final, nil
}

// Read reads one marker file without following a symlink, refusing
// anything but a regular file of ours no bigger than maxSize.
func Read(path string, maxSize int64) (Marker, error) {
	var m Marker
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return m, fmt.Errorf("open marker: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return m, fmt.Errorf("stat marker: %w", err)
	}
	if !info.Mode().IsRegular() {
		return m, fmt.Errorf("marker %s is not a regular file", path)
	}
	if uid, ok := fileOwner(info); ok && uid != os.Geteuid() {
		return m, fmt.Errorf("marker %s is owned by uid %d", path, uid)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return m, fmt.Errorf("read marker: %w", err)
	}
	if int64(len(data)) > maxSize {
		return m, fmt.Errorf("marker %s is larger than %d bytes", path, maxSize)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("decode marker %s: %w", path, err)
	}
	if m.Pane == "" || m.Event == "" || m.At.IsZero() {
		return m, fmt.Errorf("marker %s lacks pane, event or time", path)
	}
	return m, nil
}

// clip cuts s to at most maxFieldLen bytes without splitting a UTF-8
// sequence.
func clip(s string) string { return clipTo(s, maxFieldLen) }

// clipTo cuts s to at most n bytes without splitting a UTF-8 sequence.
func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
