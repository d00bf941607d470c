package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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
