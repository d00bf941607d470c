package daemon

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"

	"github.com/google/renameio/v2"

	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/respawn"
)

// The notified file keeps what was sent of each hold that notified
// (notify.Sent), so that a daemon started again does not tell a person
// again, as new, of a prompt they were told of. It is a cache: a file that
// cannot be read is logged and replaced, a record that cannot be a hold's
// is skipped. One per host, as the daemon's lock: a state dir may be
// shared, the panes are not.

// Limits of the notified file: it is read at start, whoever wrote it.
const (
	sentVersion  = 1
	maxSentFile  = 1 << 20
	maxSentHolds = 4096
	maxSentPane  = 1024
)

type sentFile struct {
	Version int           `json:"version"`
	Holds   []notify.Sent `json:"holds"`
}

// needKinds are the kinds a hold may have.
var needKinds = map[string]bool{}

func init() {
	for _, k := range []respawn.NeedKind{respawn.NeedQuestion, respawn.NeedPermission, respawn.NeedElicitation, respawn.NeedMenu,
		respawn.NeedStuck, respawn.NeedAuth, respawn.NeedSendFailed, respawn.NeedError} {
		needKinds[string(k)] = true
	}
}

// readSent reads the notified file: its records that can be a hold's,
// and what is wrong with the file or the first record skipped. A missing
// file is no record and no error.
func readSent(path string) ([]notify.Sent, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() { // a FIFO would hang the start, a link point anywhere
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSentFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxSentFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxSentFile)
	}
	var sf sentFile
	if err := json.Unmarshal(data, &sf); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if sf.Version != sentVersion {
		return nil, fmt.Errorf("%s: version %d, want %d", path, sf.Version, sentVersion)
	}
	if len(sf.Holds) > maxSentHolds {
		return nil, fmt.Errorf("%s: %d holds, more than %d", path, len(sf.Holds), maxSentHolds)
	}
	var out []notify.Sent
	var problem error
	for i, r := range sf.Holds {
		if why := sentProblem(r); why != "" {
			problem = cmp.Or(problem, fmt.Errorf("%s: holds[%d] skipped: %s", path, i, why))
			continue
		}
		out = append(out, r)
	}
	return out, problem
}

// sentProblem says why r cannot be a hold's record, "" when it can. It
// never quotes r: the file may be anyone's.
func sentProblem(r notify.Sent) string {
	switch {
	case r.Pane == "" || len(r.Pane) > maxSentPane:
		return fmt.Sprintf("pane must be 1 to %d bytes", maxSentPane)
	case !utf8.ValidString(r.Pane) || !safetext.Safe(r.Pane):
		return "pane holds control or invisible characters"
	case !needKinds[r.Kind]:
		return "kind is not a kind of need"
	case r.Count < 1:
		return "count must be at least 1"
	case r.Last.IsZero():
		return "last is missing"
	}
	return ""
}

// writeSent replaces the notified file with records, atomically.
func writeSent(path string, records []notify.Sent) error {
	if records == nil {
		records = []notify.Sent{}
	}
	data, err := json.Marshal(sentFile{Version: sentVersion, Holds: records})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return renameio.WriteFile(path, append(data, '\n'), 0o600)
}

// sentKeeper writes the notified file in the background: a Notifier
// offers its records with its lock held, and must not wait on a disk.
type sentKeeper struct {
	path     string
	log      *slog.Logger
	stopping func() bool // the daemon stops: its panes' releases are no news to keep

	mu      sync.Mutex
	latest  []notify.Sent
	pending bool
	failed  string // the last write's error, logged once

	wake chan struct{}
	quit chan struct{}
	done chan struct{}
}

func newSentKeeper(path string, log *slog.Logger, stopping func() bool) *sentKeeper {
	k := &sentKeeper{path: path, log: log, stopping: stopping,
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go k.run()
	return k
}

// offer keeps records to write, unless the daemon stops; it never waits.
func (k *sentKeeper) offer(records []notify.Sent) {
	if k.stopping() {
		return
	}
	k.mu.Lock()
	k.latest, k.pending = records, true
	k.mu.Unlock()
	select {
	case k.wake <- struct{}{}:
	default:
	}
}

func (k *sentKeeper) run() {
	defer close(k.done)
	for {
		select {
		case <-k.wake:
			k.write()
		case <-k.quit:
			k.write() // what was offered before the daemon stopped
			return
		}
	}
}

// write writes the latest records offered, if any are pending.
func (k *sentKeeper) write() {
	k.mu.Lock()
	records, pending := k.latest, k.pending
	k.pending = false
	k.mu.Unlock()
	if !pending {
		return
	}
	err := writeSent(k.path, records)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	k.mu.Lock()
	first := msg != "" && msg != k.failed
	k.failed = msg
	k.mu.Unlock()
	if first {
		k.log.Warn("notifications: cannot keep what was sent; a restart may tell a pending prompt again", "file", k.path, "err", msg)
	}
}

// close writes what is pending and stops.
func (k *sentKeeper) close() {
	close(k.quit)
	<-k.done
}

// load reads the notified file at a start, logging what is wrong with
// it; what cannot be read is no record.
func (k *sentKeeper) load() []notify.Sent {
	records, err := readSent(k.path)
	if err != nil {
		k.log.Warn("notifications: the file of what was sent is damaged; it is rewritten, and prompts of its panes may be told again",
			"err", safetext.Line(err.Error()), "kept", len(records))
	}
	return records
}
