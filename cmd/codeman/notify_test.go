package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/fakentfy"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/remote"
)

// runNotifyTest runs `codeman notify test` with config.toml holding text.
func runNotifyTest(t *testing.T, text string, args ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if text != "" {
		if err := os.MkdirAll(filepath.Join(dir, "codeman"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "codeman", "config.toml"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, io.Discard
	err := app.Run(append([]string{"codeman", "notify", "test"}, args...))
	return out.String(), err
}

// ntfyServer answers every POST with status and keeps the Title headers.
func ntfyServer(t *testing.T, status int) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var titles []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		titles = append(titles, r.Method+" "+r.Header.Get("Title"))
		mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), titles...)
	}
}

func TestNotifyTest_URL(t *testing.T) {
	srv, titles := ntfyServer(t, http.StatusOK)
	out, err := runNotifyTest(t, "[notify]\nurl = \""+srv.URL+"/secret-topic\"\n")
	if err != nil {
		t.Fatalf("notify test: %v\n%s", err, out)
	}
	if want := "url " + srv.URL + "/…: ok\n"; out != want {
		t.Errorf("output = %q, want %q", out, want)
	}
	if got := titles(); len(got) != 1 || got[0] != "POST codeman test notification" {
		t.Errorf("server saw %q", got)
	}
}

// One failing channel fails the command; every channel is still tried,
// and the URL's secret stays out of the output.
func TestNotifyTest_OneFails(t *testing.T) {
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("needs /bin/true")
	}
	srv, titles := ntfyServer(t, http.StatusForbidden)
	text := "[notify]\ncommand = [\"/bin/true\"]\nurl = \"" + srv.URL + "/secret-topic?auth=tok3n\"\n"
	out, err := runNotifyTest(t, text)
	if err == nil || err.Error() != "1 of 2 notification channels failed" {
		t.Errorf("notify test = %v, want one failure", err)
	}
	want := "command true: ok\nurl " + srv.URL + "/…?…: error: post " + srv.URL + "/…?…: 403 Forbidden\n"
	if out != want {
		t.Errorf("output =\n%s\nwant\n%s", out, want)
	}
	if strings.Contains(out, "secret") || strings.Contains(out, "tok3n") {
		t.Errorf("output shows the URL's secret: %s", out)
	}
	if len(titles()) != 1 {
		t.Errorf("server saw %d requests, want 1 (a 403 is not retried)", len(titles()))
	}
}

func TestNotifyTest_NoChannel(t *testing.T) {
	for _, text := range []string{"", "[notify]\nnotify_after = \"1m\"\n"} {
		out, err := runNotifyTest(t, text)
		if err == nil || !strings.HasPrefix(err.Error(), "no notification channel is configured\nTry: add a [notify] table to ") ||
			!strings.Contains(err.Error(), `url = "https://ntfy.sh/YOUR-TOPIC"`) || out != "" {
			t.Errorf("config %q: notify test = %v, output %q", text, err, out)
		}
	}
}

func TestNotifyTest_Profile(t *testing.T) {
	srv, _ := ntfyServer(t, http.StatusOK)
	text := "[notify]\nurl = \"" + srv.URL + "/t\"\n[profile.quiet.notify]\nenabled = false\n"
	out, err := runNotifyTest(t, text, "--profile", "quiet")
	if err != nil || !strings.HasPrefix(out, "note: profile quiet sends no notification (enabled = false); testing the channels anyway\n") ||
		!strings.HasSuffix(out, ": ok\n") {
		t.Errorf("--profile quiet: %v, output %q", err, out)
	}
	if _, err := runNotifyTest(t, text, "--profile", "nope"); err == nil || !strings.Contains(err.Error(), `unknown profile "nope"`) {
		t.Errorf("--profile nope: %v", err)
	}
}

func TestNotifyTest_BadConfig(t *testing.T) {
	_, err := runNotifyTest(t, "[notify]\nurl = \"ftp://ntfy.sh/secret-topic\"\n")
	if err == nil || !strings.Contains(err.Error(), `config.toml:2: key "notify.url": must start with`) || strings.Contains(err.Error(), "secret") {
		t.Errorf("notify test = %v", err)
	}
}

// lockedBuffer is a bytes.Buffer that a command writes while a test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startNotifyTest runs `codeman notify test` on a fake clock with
// config.toml holding text; done gets its error, and stdout and stderr
// fill as it goes.
func startNotifyTest(t *testing.T, text string) (fc *clockwork.FakeClock, stdout, stderr *lockedBuffer, done chan error) {
	t.Helper()
	writeConfig(t, text)
	fc = clockwork.NewFakeClock()
	old := notifyClock
	notifyClock = fc
	t.Cleanup(func() { notifyClock = old })
	app := newApp()
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	app.Writer, app.ErrWriter = stdout, stderr
	done = make(chan error, 1)
	go func() { done <- app.Run([]string{"codeman", "notify", "test"}) }()
	return fc, stdout, stderr, done
}

func blockUntil(t *testing.T, fc *clockwork.FakeClock, timers int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := fc.BlockUntilContext(ctx, timers); err != nil {
		t.Fatalf("waiting for %d timers: %v", timers, err)
	}
}

// Against a webhook that never answers, notify test says on stderr each
// time it gives up on an attempt and retries, then fails naming why.
func TestNotifyTest_HangingWebhookSaysItRetries(t *testing.T) {
	release := make(chan struct{})
	got := make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- struct{}{}
		<-release
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	fc, stdout, stderr, done := startNotifyTest(t, "[notify]\nurl = \""+srv.URL+"/secret-topic\"\n")
	name := "url " + srv.URL + "/…"
	var want string
	for i := range 4 {
		wait.Receive(t, fmt.Sprintf("attempt %d", i+1), 10*time.Second, got, func(struct{}) bool { return true })
		blockUntil(t, fc, 2) // the test's bound and the attempt's timeout
		fc.Advance(10 * time.Second)
		if i == 3 {
			break
		}
		want += fmt.Sprintf("%s: no answer after 10s; retrying in %ds (%d of 3)\n", name, 1<<i, i+1)
		if err := wait.Until("the retry said", 10*time.Second, func() bool { return stderr.String() == want }); err != nil {
			t.Fatalf("%v: stderr %q, want %q", err, stderr.String(), want)
		}
		if stdout.String() != "" {
			t.Fatalf("stdout before the end: %q", stdout.String())
		}
		blockUntil(t, fc, 2) // the bound and the backoff
		fc.Advance(time.Duration(1<<i) * time.Second)
	}
	err := wait.Receive(t, "notify test to end", 10*time.Second, done, func(error) bool { return true })
	if err == nil || err.Error() != "1 of 1 notification channel failed" {
		t.Errorf("notify test = %v", err)
	}
	if line := name + ": error: post " + srv.URL + "/…: no answer after 10s (4 attempts)\n"; stdout.String() != line {
		t.Errorf("stdout = %q, want %q", stdout.String(), line)
	}
	if strings.Contains(stderr.String()+stdout.String(), "secret") {
		t.Errorf("output shows the topic")
	}
}

// A session bus that takes the connection and never answers fails the
// desktop channel after its bound, which the line names.
func TestNotifyTest_SilentDesktopTimesOut(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("the desktop channel is osascript on macOS")
	}
	dir, err := os.MkdirTemp("", "nt") // short: a socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	l, err := net.Listen("unix", filepath.Join(dir, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(dir, "bus"))
	fc, stdout, _, done := startNotifyTest(t, "[notify]\ndesktop = true\n")
	blockUntil(t, fc, 1)
	fc.Advance(notify.DesktopTimeout)
	err = wait.Receive(t, "notify test to end", 10*time.Second, done, func(error) bool { return true })
	if err == nil || stdout.String() != "desktop: error: no answer after 10s\n" {
		t.Errorf("notify test = %v, stdout %q", err, stdout.String())
	}
}

// With [notify.answer], the test message has an "Answer test" button
// whose token the daemon's key signs, posting to the reply topic.
func TestNotifyTest_AnswerButton(t *testing.T) {
	srv := fakentfy.Start(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	out, err := runNotifyTest(t, fmt.Sprintf("[notify]\nurl = %q\n[notify.answer]\ntopic = %q\n", srv.URL()+"/alerts", srv.URL()+"/replies"))
	if err != nil || !strings.Contains(out, `"Answer test" button`) {
		t.Fatalf("notify test = %q, %v", out, err)
	}
	msgs := srv.Published("alerts")
	if len(msgs) != 1 {
		t.Fatalf("published %d messages", len(msgs))
	}
	as, err := fakentfy.Actions(msgs[0])
	if err != nil || len(as) != 1 || as[0].Label != "Answer test" || as[0].URL != srv.URL()+"/replies" {
		t.Fatalf("actions %+v, %v", as, err)
	}
	key, err := remote.LoadKey(filepath.Join(state, "codeman", remote.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := remote.Verify(key, as[0].Body, time.Now()); err != nil || c.Pane != remote.Test {
		t.Errorf("the button's token: %+v, %v", c, err)
	}
}
