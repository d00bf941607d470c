package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// request is what the test server saw of one request.
type request struct {
	path, query string
	header      http.Header
	body        string
}

// hookServer answers each request with the next status of statuses (the
// last one repeating) and keeps what it saw.
type hookServer struct {
	*httptest.Server
	mu       sync.Mutex
	reqs     []request
	statuses []int
	headers  map[int]http.Header // extra headers of the n-th answer
	body     string              // the body of a refusal
}

func newHookServer(t *testing.T, statuses ...int) *hookServer {
	t.Helper()
	s := &hookServer{statuses: statuses, headers: map[int]http.Header{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, request{path: r.URL.Path, query: r.URL.RawQuery, header: r.Header.Clone(), body: string(body)})
		n := len(s.reqs) - 1
		status := s.statuses[min(n, len(s.statuses)-1)]
		maps.Copy(w.Header(), s.headers[n])
		s.mu.Unlock()
		w.WriteHeader(status)
		if status >= 300 {
			io.WriteString(w, s.body)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *hookServer) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

func newTestWebhook(t *testing.T, o WebhookOptions) *Webhook {
	t.Helper()
	w, err := NewWebhook(o)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWebhook_NtfyText(t *testing.T) {
	srv := newHookServer(t, http.StatusOK)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/my-topic"})
	h := Hold{Pane: "%3", Target: "café:1.0 (%3)", Kind: "question", Reason: "Which database?", Since: t0}
	if err := w.Send(context.Background(), raisedMessage(h, DefaultPolicy(), 1, at(time.Minute))); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	title, err := new(mime.WordDecoder).DecodeHeader(r.header.Get("Title"))
	if err != nil {
		t.Fatal(err)
	}
	if r.path != "/my-topic" || r.body != "Which database?" || title != "café:1.0 (%3) needs you (question, 1m)" ||
		r.header.Get("Priority") != "high" || r.header.Get("Tags") != "warning,question" ||
		r.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("request = %+v (title %q)", r, title)
	}
	if err := w.Send(context.Background(), TestMessage(t0)); err != nil {
		t.Fatal(err)
	}
	if r := srv.requests()[1]; r.header.Get("Priority") != "low" || r.header.Get("Title") != "codeman test notification" {
		t.Errorf("test request headers = %v", r.header)
	}
}

// jsonFields are the fields the package doc lists for the json format.
var jsonFields = []string{"event", "title", "message", "pane", "target", "kind", "reason", "session",
	"window", "cwd", "since", "at", "held_seconds", "count"}

func TestWebhook_JSON(t *testing.T) {
	srv := newHookServer(t, http.StatusOK)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/hook", Format: "json"})
	h := Hold{Pane: "tmux:/tmp/s:%3", Target: "work:1.0 (%3)", Kind: "permission", Reason: "Bash: rm -rf build",
		Session: "work", Window: "editor", Cwd: "/src/app", Since: t0}
	if err := w.Send(context.Background(), raisedMessage(h, DefaultPolicy(), 2, at(31*time.Minute))); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	var got map[string]any
	if err := json.Unmarshal([]byte(r.body), &got); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, slices.Sorted(slices.Values(jsonFields))) {
		t.Errorf("fields = %q, want %q", keys, jsonFields)
	}
	want := map[string]any{"event": "raised", "title": "work:1.0 (%3) still needs you (permission, 31m)",
		"message": "Bash: rm -rf build", "pane": "tmux:/tmp/s:%3", "target": "work:1.0 (%3)", "kind": "permission",
		"reason": "Bash: rm -rf build", "session": "work", "window": "editor", "cwd": "/src/app",
		"since": "2026-03-04T12:00:00Z", "at": "2026-03-04T12:31:00Z", "held_seconds": 1860.0, "count": 2.0}
	if !maps.Equal(got, want) {
		t.Errorf("body = %v\nwant %v", got, want)
	}
	if r.header.Get("Content-Type") != "application/json" || r.header.Get("Title") == "" {
		t.Errorf("headers = %v", r.header)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range jsonFields {
		if !strings.Contains(string(doc), "//\t"+f+" ") {
			t.Errorf("the package doc does not list the json field %q", f)
		}
	}
}

// Network errors, 5xx and 429 are retried after 1s, 2s, 4s..., or the
// longer Retry-After; the fake clock shows no attempt comes early.
func TestWebhook_RetriesWithBackoff(t *testing.T) {
	srv := newHookServer(t, 503, 502, 429, 200)
	srv.headers[2] = http.Header{"Retry-After": {"5"}}
	fc := clockwork.NewFakeClockAt(t0)
	retries := make(chan Retry, 4)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/t", Clock: fc, OnRetry: func(r Retry) { retries <- r }})
	done := make(chan error, 1)
	go func() { done <- w.Send(context.Background(), TestMessage(t0)) }()
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second} {
		// Told once the attempt's timer is stopped, before the backoff's
		// is armed: then the backoff's is the only one.
		r := receiveRetry(t, retries)
		if want := fmt.Sprintf("%s; retrying in %s (%d of 3)", []string{"503 Service Unavailable", "502 Bad Gateway", "429 Too Many Requests"}[i], formatDuration(wait), i+1); r.String() != want {
			t.Errorf("retry %d = %q, want %q", i+1, r, want)
		}
		armed(t, fc)
		if n := len(srv.requests()); n != i+1 {
			t.Fatalf("before wait %d: %d requests, want %d", i, n, i+1)
		}
		fc.Advance(wait - time.Millisecond)
		if n := len(srv.requests()); n != i+1 {
			t.Fatalf("attempt %d came before %s", i+2, wait)
		}
		fc.Advance(time.Millisecond)
	}
	if err := receiveErr(t, done); err != nil {
		t.Fatalf("Send = %v, want success on the fourth attempt", err)
	}
	if n := len(srv.requests()); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
}

func receiveRetry(t *testing.T, retries chan Retry) Retry {
	t.Helper()
	return wait.Receive(t, "a retry", waitLong, retries, func(Retry) bool { return true })
}

func receiveErr(t *testing.T, done chan error) error {
	t.Helper()
	return wait.Receive(t, "Send to return", waitLong, done, func(error) bool { return true })
}

const secretURLPath = "/secret-topic-4711"

func TestWebhook_RetriesAreBounded(t *testing.T) {
	srv := newHookServer(t, 500)
	srv.body = `{"error":"topic secret-topic-4711 is broken"}`
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + secretURLPath + "?auth=tok3n", Retries: 2, Backoff: time.Millisecond})
	err := w.Send(context.Background(), TestMessage(t0))
	want := "post " + srv.URL + "/…?…: 500 Internal Server Error: {\"error\":\"topic … is broken\"} (3 attempts)"
	if err == nil || err.Error() != want {
		t.Errorf("Send = %v\nwant %s", err, want)
	}
	if n := len(srv.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	var se *statusError
	if !errors.As(err, &se) || strings.Contains(se.Error(), "4711") {
		t.Errorf("cause = %v, want a scrubbed statusError", se)
	}
}

func TestWebhook_ClientErrorNotRetried(t *testing.T) {
	srv := newHookServer(t, http.StatusForbidden)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + secretURLPath})
	err := w.Send(context.Background(), TestMessage(t0))
	if err == nil || err.Error() != "post "+srv.URL+"/…: 403 Forbidden" {
		t.Errorf("Send = %v", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// A network error names the URL only redacted: neither userinfo, path
// nor query shows.
func TestWebhook_NetworkErrorRedacted(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	raw := "http://user:hunter2@" + addr + secretURLPath + "?auth=tok3n#frag"
	w := newTestWebhook(t, WebhookOptions{URL: raw, Retries: 1, Backoff: time.Millisecond})
	err = w.Send(context.Background(), TestMessage(t0))
	if err == nil {
		t.Fatal("Send succeeded with nothing listening")
	}
	msg := err.Error()
	for _, secret := range []string{"hunter2", "user", "secret-topic", "tok3n", "frag"} {
		if strings.Contains(msg, secret) {
			t.Errorf("error %q shows %q", msg, secret)
		}
	}
	if !strings.HasPrefix(msg, "post http://…@"+addr+"/…?…#…: ") || !strings.HasSuffix(msg, "(2 attempts)") {
		t.Errorf("error = %q", msg)
	}
	if w.Name() != "url http://…@"+addr+"/…?…#…" {
		t.Errorf("Name = %q", w.Name())
	}
}

// hangingServer takes requests and never answers them until the test
// ends; it counts them.
func hangingServer(t *testing.T) (*httptest.Server, chan struct{}) {
	t.Helper()
	release := make(chan struct{})
	got := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- struct{}{}
		<-release
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before Close, which waits for the handlers
	return srv, got
}

// A server that never answers: each attempt gives up after Timeout on
// the webhook's clock, says that it retries, and the last one fails.
func TestWebhook_RequestTimeout(t *testing.T) {
	srv, got := hangingServer(t)
	fc := clockwork.NewFakeClockAt(t0)
	retries := make(chan Retry, 4)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/t", Clock: fc, Retries: 2, OnRetry: func(r Retry) { retries <- r }})
	done := make(chan error, 1)
	go func() { done <- w.Send(context.Background(), TestMessage(t0)) }()
	for i := range 3 {
		wait.Receive(t, "the request", waitLong, got, func(struct{}) bool { return true })
		armed(t, fc) // the request's timer
		fc.Advance(DefaultWebhookTimeout)
		if i == 2 {
			break
		}
		r := receiveRetry(t, retries)
		if want := fmt.Sprintf("no answer after 10s; retrying in %ds (%d of 2)", 1<<i, i+1); r.String() != want || r.Channel != "url "+srv.URL+"/…" {
			t.Errorf("retry %d = %q from %q, want %q", i+1, r, r.Channel, want)
		}
		armed(t, fc)
		fc.Advance(time.Duration(1<<i) * time.Second)
	}
	err := receiveErr(t, done)
	if err == nil || err.Error() != "post "+srv.URL+"/…: no answer after 10s (3 attempts)" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Send = %v", err)
	}
}

// A context that ends during the backoff ends Send at once.
func TestWebhook_CanceledDuringBackoff(t *testing.T) {
	srv := newHookServer(t, 503)
	fc := clockwork.NewFakeClockAt(t0)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/t", Clock: fc})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Send(ctx, TestMessage(t0)) }()
	armed(t, fc)
	cancel()
	if err := receiveErr(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("Send = %v, want canceled", err)
	}
}

func TestNewWebhook_Invalid(t *testing.T) {
	for _, tc := range []struct{ url, format, want string }{
		{"ftp://ntfy.sh/secret-topic", "", "make url channel: ftp://ntfy.sh/…: the scheme must be http or https"},
		{"https:///secret-topic", "", "make url channel: https:///…: the URL has no host"},
		{"https://ntfy.sh/secret-topic\x7f", "", "make url channel: the URL does not parse"},
		{"ntfy.sh/secret-topic", "", "make url channel: /…: the scheme must be http or https"},
		{"https://ntfy.sh/secret-topic", "xml", `make url channel: format must be "text" or "json", not "xml"`},
	} {
		_, err := NewWebhook(WebhookOptions{URL: tc.url, Format: tc.format})
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewWebhook(%q, %q) = %v, want %s", tc.url, tc.format, err, tc.want)
		}
	}
}

// What a pane asks comes from the agent (a question's text, a command), so
// it may hold line breaks meant to forge headers: the request keeps one
// Title and one Tags header, and the breaks become spaces.
func TestWebhook_HostileTextForgesNoHeader(t *testing.T) {
	srv := newHookServer(t, http.StatusOK)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/my-topic"})
	h := Hold{Pane: "%3", Target: "work\r\nX-Evil: 1", Kind: "question\r\nTags: pwned",
		Reason: "rm -rf /\r\nPriority: min\n\x1b[31mred", Since: t0}
	if err := w.Send(context.Background(), raisedMessage(h, DefaultPolicy(), 1, at(time.Minute))); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if r.header.Get("X-Evil") != "" || len(r.header.Values("Tags")) != 1 || r.header.Get("Priority") != "high" {
		t.Errorf("headers forged: %v", r.header)
	}
	title, err := new(mime.WordDecoder).DecodeHeader(r.header.Get("Title"))
	if err != nil || strings.ContainsAny(title+r.body, "\r\n\x1b") {
		t.Errorf("title %q / body %q keep control characters (%v)", title, r.body, err)
	}
}

// A redirect is an error naming the status and where it points, host
// only: the message goes to no other host, no Referer carries the URL's
// secrets there, and a 302 does not turn the POST into a GET.
func TestWebhook_RedirectIsAnError(t *testing.T) {
	elsewhere := newHookServer(t, http.StatusOK)
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusFound, http.StatusMovedPermanently, http.StatusPermanentRedirect} {
		srv := newHookServer(t, status)
		srv.headers[0] = http.Header{"Location": {"http://thief:pa55@" + elsewhere.Listener.Addr().String() + "/steal?auth=l0cation-token"}}
		w := newTestWebhook(t, WebhookOptions{URL: srv.URL + secretURLPath + "?auth=tok3n"})
		err := w.Send(context.Background(), TestMessage(t0))
		want := "post " + srv.URL + "/…?…: " + strconv.Itoa(status) + " " + http.StatusText(status) +
			": the server redirects to " + elsewhere.URL + ", and codeman follows no redirect; set url to the address the webhook has now"
		if err == nil || err.Error() != want {
			t.Errorf("%d: Send = %v\nwant %s", status, err, want)
		}
		if reqs := srv.requests(); len(reqs) != 1 || reqs[0].header.Get("Referer") != "" {
			t.Errorf("%d: the webhook saw %+v, want one request without a Referer", status, reqs)
		}
	}
	if reqs := elsewhere.requests(); len(reqs) != 0 {
		t.Errorf("the host redirected to got %+v", reqs)
	}
}

// A server that quotes the request's Authorization header and query in
// its refusal gets them scrubbed from the error.
func TestWebhook_EchoedCredentialsScrubbed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, "bad credentials: Authorization: %s; query %s; retry at https://bob:s3cret@%s/x?token=t0k3n",
			r.Header.Get("Authorization"), r.URL.RawQuery, r.Host)
	}))
	t.Cleanup(srv.Close)
	raw := strings.Replace(srv.URL, "http://", "http://bob:s3cret@", 1) + "/topic?auth=" + ntfyAuth
	w := newTestWebhook(t, WebhookOptions{URL: raw})
	err := w.Send(context.Background(), TestMessage(t0))
	if err == nil {
		t.Fatal("Send succeeded against a 401")
	}
	for _, secret := range []string{ntfyBasic, ntfyAuth, "s3cret", "t0k3n", "Ym9i"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error shows %q: %s", secret, err)
		}
	}
	if !strings.Contains(err.Error(), "401 Unauthorized: bad credentials: Authorization: Basic …") {
		t.Errorf("error = %s", err)
	}
}

// A hold's buttons are ntfy's Actions header in its JSON form, ASCII
// only, its labels shown safe; a resolved message and the json format
// carry none.
func TestWebhook_NtfyActions(t *testing.T) {
	srv := newHookServer(t, http.StatusOK)
	w := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/my-topic"})
	h := Hold{Pane: "%3", Kind: "question", Reason: "Which database?", Since: t0, Buttons: []Button{
		{Label: "1. Café", URL: "https://ntfy.example/replies", Body: "tok1", Headers: map[string]string{"Authorization": "Bearer tk"}},
		{Label: "2. \x1b]52;c;aGk=\x07\u202eevil", URL: "https://ntfy.example/replies", Body: "tok2"},
		{Label: "3", URL: "u", Body: "3"}, {Label: "4", URL: "u", Body: "4"},
	}}
	if err := w.Send(context.Background(), raisedMessage(h, DefaultPolicy(), 1, at(time.Minute))); err != nil {
		t.Fatal(err)
	}
	header := srv.requests()[0].header.Get("Actions")
	for _, r := range header {
		if r >= 0x80 || r < 0x20 {
			t.Fatalf("Actions header has %q: %s", r, header)
		}
	}
	var as []struct {
		Action, Label, URL, Method, Body string
		Headers                          map[string]string
		Clear                            bool
	}
	if err := json.Unmarshal([]byte(header), &as); err != nil {
		t.Fatalf("Actions %q: %v", header, err)
	}
	if len(as) != MaxButtons || as[0].Label != "1. Café" || as[0].Action != "http" || as[0].Method != "POST" || as[0].Body != "tok1" ||
		as[0].Headers["Authorization"] != "Bearer tk" || !as[0].Clear {
		t.Fatalf("actions %+v", as)
	}
	if strings.ContainsAny(as[1].Label, "\x1b\a\u202e") {
		t.Errorf("label %q obeys escapes", as[1].Label)
	}
	if err := w.Send(context.Background(), resolvedMessage(h, DefaultPolicy(), at(2*time.Minute))); err != nil {
		t.Fatal(err)
	}
	if a := srv.requests()[1].header.Get("Actions"); a != "" {
		t.Errorf("resolved message has actions %s", a)
	}
	jw := newTestWebhook(t, WebhookOptions{URL: srv.URL + "/hook", Format: "json"})
	if err := jw.Send(context.Background(), raisedMessage(h, DefaultPolicy(), 1, at(time.Minute))); err != nil {
		t.Fatal(err)
	}
	if a := srv.requests()[2].header.Get("Actions"); a != "" {
		t.Errorf("json format has actions %s", a)
	}
}
