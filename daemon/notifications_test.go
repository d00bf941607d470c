package daemon

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// webhookLog is a webhook that keeps the Title of each message.
type webhookLog struct {
	*httptest.Server
	mu     sync.Mutex
	titles []string
}

func newWebhookLog(t *testing.T) *webhookLog {
	t.Helper()
	w := &webhookLog{}
	w.Server = httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		w.titles = append(w.titles, r.Header.Get("Title"))
		w.mu.Unlock()
	}))
	t.Cleanup(w.Close)
	return w
}

func (w *webhookLog) got() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.titles...)
}

// waitFor waits for the webhook to have got n messages, the last one
// about pane, and returns them all.
func (w *webhookLog) waitFor(t *testing.T, n int, pane string) []string {
	t.Helper()
	wait.For(t, "message "+pane, 10*time.Second, func() bool { got := w.got(); return len(got) >= n })
	got := w.got()
	if len(got) != n || !strings.HasPrefix(got[n-1], pane+" ") {
		t.Fatalf("the webhook got %q, want %d messages, the last about %s", got, n, pane)
	}
	return got
}

// lockedLog is a daemon's log that a test reads.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// notifyDaemon is a daemon whose notifications alone run, on a fake
// clock, with state dir state and the config file config.
type notifyDaemon struct {
	d      *Daemon
	log    *lockedLog
	cancel context.CancelFunc
}

func startNotifications(t *testing.T, fc clockwork.Clock, state, config string) *notifyDaemon {
	t.Helper()
	log := &lockedLog{}
	d := New(Options{Paths: api.Paths{State: state}, ConfigPath: config, Clock: fc, Logger: slog.New(slog.NewTextHandler(log, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	d.ctx = ctx
	d.notes.load()
	nd := &notifyDaemon{d: d, log: log, cancel: cancel}
	t.Cleanup(nd.stop)
	return nd
}

// stop stops it as Run does: the context first, then the panes, then the
// notifications.
func (nd *notifyDaemon) stop() {
	nd.cancel()
	for _, addr := range []string{"tmux:/s:%1", "tmux:/s:%2", "tmux:/s:%3", "tmux:/s:%4"} {
		nd.d.notes.release(addr)
	}
	nd.d.notes.close()
}

// need raises kind on the pane addr, as its controller found it at since.
func (nd *notifyDaemon) need(addr string, kind respawn.NeedKind, since time.Time) {
	p := &pane{addr: addr, target: addr}
	nd.d.notes.need(p, respawn.Need{Kind: kind, Reason: "Claude needs your permission to use Bash", Since: since}, place{})
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A hold is told once: an edit of [notify] and a restart of the daemon
// go on with it rather than tell it again as new. Each check raises a
// fresh hold after: the webhook gets messages in order, so a hold told
// again would show before it.
func TestNotifications_OncePerHold(t *testing.T) {
	hook := newWebhookLog(t)
	dir := t.TempDir()
	state, config := filepath.Join(dir, "state"), filepath.Join(dir, "config.toml")
	writeFile(t, config, "[notify]\nurl = \""+hook.URL+"/topic\"\n")
	fc := clockwork.NewFakeClockAt(time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC))
	old := fc.Now().Add(-time.Hour) // due at once

	nd := startNotifications(t, fc, state, config)
	nd.need("tmux:/s:%1", respawn.NeedPermission, old)
	hook.waitFor(t, 1, "tmux:/s:%1")

	writeFile(t, config, "[notify]\nurl = \""+hook.URL+"/topic\"\nnotify_resolved = true\nrate_limit_per_minute = 20\n")
	nd.d.notes.load()
	nd.need("tmux:/s:%2", respawn.NeedPermission, old)
	hook.waitFor(t, 2, "tmux:/s:%2")

	nd.stop()
	fc.Advance(time.Minute)
	nd = startNotifications(t, fc, state, config)
	// The controllers find the prompts again, already old: they would
	// be told at once if they were news.
	nd.need("tmux:/s:%1", respawn.NeedPermission, old)
	nd.need("tmux:/s:%2", respawn.NeedPermission, old)
	nd.need("tmux:/s:%3", respawn.NeedPermission, old)
	hook.waitFor(t, 3, "tmux:/s:%3")
	if strings.Contains(nd.log.String(), "damaged") {
		t.Errorf("log: %s", nd.log.String())
	}
}

// Whatever the notified file holds, the daemon starts, says what is wrong
// with it, and notifies; the file is rewritten.
func TestNotifications_DamagedFile(t *testing.T) {
	hook := newWebhookLog(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "config.toml")
	writeFile(t, config, "[notify]\nurl = \""+hook.URL+"/topic\"\n")
	fc := clockwork.NewFakeClockAt(time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC))
	now := `"2026-03-04T12:00:00Z"`
	record := func(pane, kind string) string {
		return `{"pane":"` + pane + `","kind":"` + kind + `","since":` + now + `,"count":1,"last":` + now + `}`
	}
	for i, tc := range []struct{ name, text, says string }{
		{"not JSON", "{\"version\":1,\"holds\":[", "unexpected end of JSON input"},
		{"another version", `{"version":9,"holds":[]}`, "version 9, want 1"},
		{"too large", `{"version":1,"holds":[],"x":"` + strings.Repeat("a", maxSentFile) + `"}`, "larger than"},
		{"a bad kind", `{"version":1,"holds":[` + record("tmux:/s:%9", "pwned") + `,` + record("tmux:/s:%1", "pwned") + `]}`, "holds[0] skipped: kind is not a kind of need"},
		{"an escape in a pane", `{"version":1,"holds":[` + record(`tmux:/s:%1\u001b]52;c;eA==\u0007`, "permission") + `]}`, "holds[0] skipped: pane holds control"},
		{"a directory", "", "is not a regular file"},
	} {
		state := filepath.Join(dir, "state", tc.name)
		if err := os.MkdirAll(state, 0o700); err != nil {
			t.Fatal(err)
		}
		path := api.Paths{State: state}.Notified()
		if tc.text == "" {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		} else {
			writeFile(t, path, tc.text)
		}
		nd := startNotifications(t, fc, state, config)
		nd.need("tmux:/s:%1", respawn.NeedPermission, fc.Now().Add(-time.Hour))
		hook.waitFor(t, i+1, "tmux:/s:%1")
		if log := nd.log.String(); !strings.Contains(log, "damaged") || !strings.Contains(log, tc.says) || strings.Contains(log, "\x1b") {
			t.Errorf("%s: log = %s", tc.name, log)
		}
		nd.stop()
		if tc.text == "" {
			continue
		}
		records, err := readSent(path)
		if err != nil || len(records) != 1 || records[0].Pane != "tmux:/s:%1" {
			t.Errorf("%s: the file now holds %+v, %v", tc.name, records, err)
		}
	}
}

// A FIFO where the file should be does not hang the start.
func TestNotifications_FIFONotRead(t *testing.T) {
	state := t.TempDir()
	if err := syscall.Mkfifo(api.Paths{State: state}.Notified(), 0o600); err != nil {
		t.Skipf("needs mkfifo: %v", err)
	}
	if _, err := readSent(api.Paths{State: state}.Notified()); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("readSent = %v", err)
	}
}
