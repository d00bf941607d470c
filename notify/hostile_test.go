package notify

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/safetext"
)

// hostileHold is a hold whose every string a pane controls carries what
// could act on a terminal or hide itself: an OSC 52 that sets the
// clipboard, a bidi override that shows a command reversed, zero-width
// characters, a C1 control and a header break.
func hostileHold() Hold {
	evil := "\x1b]52;c;cm0gLXJmIH4=\a\u202egpj.sh\u200b\u2066\u009b2J\r\nX-Evil: 1\xff"
	return Hold{Pane: "%3" + evil, Target: "work" + evil, Kind: "question" + evil, Reason: "rm -rf /tmp/" + evil,
		Session: "s" + evil, Window: "w" + evil, Cwd: "/src" + evil, Since: t0}
}

// shown checks that s shows as it reads, on one line, with the hostile
// characters spelled as escapes.
func shown(t *testing.T, what, s string) {
	t.Helper()
	if !safetext.Safe(s) || strings.ContainsAny(s, "\r\n\t") {
		t.Errorf("%s = %q: not one safe line", what, s)
	}
	for _, esc := range []string{`\x1b]52`, `\u202e`, `\u200b`, `\u2066`, `\x9b`, `\xff`} {
		if !strings.Contains(s, esc) {
			t.Errorf("%s = %q does not show %s", what, s, esc)
		}
	}
}

func TestHostileText_Message(t *testing.T) {
	m := raisedMessage(hostileHold(), DefaultPolicy(), 1, at(time.Minute))
	shown(t, "Title", m.Title)
	shown(t, "Text", m.Text)
	m = resolvedMessage(hostileHold(), DefaultPolicy(), at(time.Minute))
	shown(t, "resolved Title", m.Title)
}

func TestHostileText_CommandEnv(t *testing.T) {
	m := raisedMessage(hostileHold(), DefaultPolicy(), 1, at(time.Minute))
	for _, kv := range Env(m)[1:] { // CODEMAN_EVENT is codeman's own
		name, value, _ := strings.Cut(kv, "=")
		shown(t, name, value)
	}
}

// Every field of the json body a pane controls is cleaned as the message
// is, and the body stays valid JSON.
func TestHostileText_WebhookJSON(t *testing.T) {
	srv := newHookServer(t, http.StatusOK)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/hook", Format: "json"})
	if err := w.Send(context.Background(), raisedMessage(hostileHold(), DefaultPolicy(), 1, at(time.Minute))); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	var got map[string]any
	if err := json.Unmarshal([]byte(r.body), &got); err != nil {
		t.Fatalf("body %q is not JSON: %v", r.body, err)
	}
	for _, f := range []string{"title", "message", "pane", "target", "kind", "reason", "session", "window", "cwd"} {
		s, _ := got[f].(string)
		shown(t, f, s)
	}
	title, err := new(mime.WordDecoder).DecodeHeader(r.header.Get("Title"))
	if err != nil {
		t.Fatal(err)
	}
	shown(t, "Title header", title)
	if r.header.Get("X-Evil") != "" || !safetext.Safe(r.header.Get("Tags")) {
		t.Errorf("headers = %v", r.header)
	}
}
