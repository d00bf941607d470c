package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/safetext"
)

// Webhook is the url channel: an HTTP POST of each message, in ntfy's
// terms or as JSON (see the package doc). Its name, errors and logs show
// its URL only as Redact does.
type Webhook struct {
	raw     string
	json    bool
	timeout time.Duration
	retries int
	backoff time.Duration
	clock   clockwork.Clock
	client  *http.Client
	onRetry func(Retry)
}

var (
	_ Channel = (*Webhook)(nil)
	_ Bounded = (*Webhook)(nil)
)

// Webhook defaults and bounds.
const (
	DefaultWebhookTimeout = 10 * time.Second
	DefaultRetries        = 3
	DefaultBackoff        = time.Second
	// MaxBackoff bounds one wait between attempts, a server's
	// Retry-After included.
	MaxBackoff = 30 * time.Second
	// maxErrorBody is how much of a refusal's body an error quotes.
	maxErrorBody = 512
)

// WebhookOptions configure a Webhook.
type WebhookOptions struct {
	URL string
	// Format is "text" (the default: ntfy's body and headers) or "json".
	Format string
	// Timeout bounds one request. Default 10s.
	Timeout time.Duration
	// Retries is how many times a request that met a network error, 429
	// or 5xx is tried again; negative: never. Default 3.
	Retries int
	// Backoff is the wait before the first retry, doubled before each next
	// one up to MaxBackoff. Default 1s.
	Backoff time.Duration
	// Clock waits the backoff; nil: the real clock.
	Clock clockwork.Clock
	// Client sends the requests; nil: a client of the channel's own,
	// which honours the proxy variables and keeps no idle connection (a
	// message comes every few minutes at most).
	Client *http.Client
	// OnRetry, when set, hears of each failed attempt that will be made
	// again, before the backoff: a person waiting on a test sees why it
	// takes long.
	OnRetry func(Retry)
}

// Retry is a failed attempt of a Webhook that it makes again.
type Retry struct {
	Channel string        // the Webhook's Name
	Err     error         // why the attempt failed, scrubbed of the URL's secrets
	Wait    time.Duration // the backoff before the next attempt
	N       int           // this is the N-th retry of Of
	Of      int
}

// String says what failed and what comes: "no answer after 10s; retrying
// in 2s (2 of 3)".
func (r Retry) String() string {
	return fmt.Sprintf("%v; retrying in %s (%d of %d)", r.Err, showDuration(r.Wait), r.N, r.Of)
}

// NewWebhook checks the URL and the format and returns the channel.
func NewWebhook(o WebhookOptions) (*Webhook, error) {
	u, err := url.Parse(o.URL)
	if err != nil { // url's error quotes the URL
		return nil, errors.New("make url channel: the URL does not parse")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("make url channel: %s: the scheme must be http or https", Redact(o.URL))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("make url channel: %s: the URL has no host", Redact(o.URL))
	}
	if o.Format != "" && o.Format != "text" && o.Format != "json" {
		return nil, fmt.Errorf("make url channel: format must be \"text\" or \"json\", not %q", o.Format)
	}
	w := &Webhook{raw: o.URL, json: o.Format == "json", timeout: o.Timeout, retries: o.Retries,
		backoff: o.Backoff, clock: o.Clock, client: o.Client, onRetry: o.OnRetry}
	if w.timeout <= 0 {
		w.timeout = DefaultWebhookTimeout
	}
	switch {
	case w.retries == 0:
		w.retries = DefaultRetries
	case w.retries < 0:
		w.retries = 0
	}
	if w.backoff <= 0 {
		w.backoff = DefaultBackoff
	}
	if w.clock == nil {
		w.clock = clockwork.NewRealClock()
	}
	if w.client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DisableKeepAlives = true
		w.client = &http.Client{Transport: tr}
	}
	// A redirect would re-post the message, its URL's secrets in a
	// Referer, to whatever host the server names, or turn the POST into a
	// GET that loses it: the redirect is the answer, and an error.
	c := *w.client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	w.client = &c
	return w, nil
}

// Name is "url" and the redacted URL.
func (w *Webhook) Name() string { return "url " + Redact(w.raw) }

// Timeout bounds a Send: every attempt's timeout and the longest
// backoffs between them, with a margin.
func (w *Webhook) Timeout() time.Duration {
	return time.Duration(w.retries+1)*w.timeout + time.Duration(w.retries)*MaxBackoff + boundMargin
}

// Send posts m, retrying network errors, 429 and 5xx with backoff.
func (w *Webhook) Send(ctx context.Context, m Message) error {
	body, ctype := w.body(m)
	delay := w.backoff
	for attempt := 1; ; attempt++ {
		retry, after, err := w.post(ctx, m, body, ctype)
		if err == nil {
			return nil
		}
		if !retry || attempt > w.retries || ctx.Err() != nil {
			return w.fail(err, attempt)
		}
		wait := min(max(delay, after), MaxBackoff)
		if w.onRetry != nil {
			w.onRetry(Retry{Channel: w.Name(), Err: &webhookError{msg: scrub(err.Error(), w.raw), err: err},
				Wait: wait, N: attempt, Of: w.retries})
		}
		select {
		case <-w.clock.After(wait):
		case <-ctx.Done():
			return w.fail(ctx.Err(), attempt)
		}
		delay = min(2*delay, MaxBackoff)
	}
}

// post makes one attempt. It returns whether another may succeed and how
// long the server asked to wait (0: it did not say).
func (w *Webhook) post(ctx context.Context, m Message, body []byte, ctype string) (retry bool, after time.Duration, err error) {
	// The clock times the request, as it does the backoff.
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	noAnswer := &TimeoutError{After: w.timeout}
	timer := w.clock.AfterFunc(w.timeout, func() { cancel(noAnswer) })
	defer timer.Stop()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, w.raw, bytes.NewReader(body))
	if err != nil {
		return false, 0, errors.New("make request")
	}
	priority, tags := ntfyPriority(m)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("User-Agent", "codeman")
	req.Header.Set("Title", headerText(m.Title))
	req.Header.Set("Priority", priority)
	req.Header.Set("Tags", tags)
	if actions := ntfyActions(m); actions != "" && !w.json {
		req.Header.Set("Actions", actions)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text holds the URL
			err = ue.Err
		}
		if ctx.Err() == nil && context.Cause(reqCtx) == noAnswer {
			noAnswer.Err = err
			err = noAnswer
		}
		return true, 0, err
	}
	defer resp.Body.Close()
	said, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody)) // only quoted in an error
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return false, 0, nil
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return false, 0, &redirectError{status: resp.Status, to: redirectTarget(resp)}
	}
	err = &statusError{status: resp.Status, said: scrub(oneLine(string(said)), w.raw)}
	retry = resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
	return retry, w.retryAfter(resp.Header.Get("Retry-After")), err
}

// fail wraps the last attempt's error with the redacted URL.
func (w *Webhook) fail(err error, attempts int) error {
	msg := fmt.Sprintf("post %s: %v", Redact(w.raw), err)
	if attempts > 1 {
		msg += fmt.Sprintf(" (%d attempts)", attempts)
	}
	return &webhookError{msg: scrub(msg, w.raw), err: err}
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func (w *Webhook) retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(w.clock.Now()))
	}
	return 0
}

// body returns the request body and its content type.
func (w *Webhook) body(m Message) ([]byte, string) {
	if w.json {
		return jsonBody(m), "application/json"
	}
	return []byte(m.Text), "text/plain; charset=utf-8"
}

// ntfyPriority returns ntfy's Priority and Tags for m: a hold is high, an
// end default and a test low; the first tag is an emoji ntfy shows.
func ntfyPriority(m Message) (priority, tags string) {
	kind := strings.ReplaceAll(oneLine(m.Hold.Kind), ",", " ")
	switch m.Event {
	case EventRaised:
		return "high", joinTags("warning", kind)
	case EventResolved:
		return "default", joinTags("white_check_mark", kind)
	default:
		return "low", "test_tube"
	}
}

func joinTags(emoji, kind string) string {
	if kind == "" {
		return emoji
	}
	return emoji + "," + kind
}

// headerText makes text fit a header: one line, and RFC 2047 encoded when
// it is not ASCII, which ntfy decodes.
func headerText(text string) string {
	return mime.BEncoding.Encode("utf-8", oneLine(text))
}

// statusError is a refusal by the server.
type statusError struct {
	status string // "503 Service Unavailable"
	said   string // the start of its body, scrubbed
}

func (e *statusError) Error() string {
	if e.said == "" {
		return e.status
	}
	return e.status + ": " + e.said
}

// redirectError is a server's answer that the webhook is elsewhere.
type redirectError struct {
	status string // "307 Temporary Redirect"
	to     string // the scheme and host of its Location, "" when it names none
}

func (e *redirectError) Error() string {
	where := "elsewhere"
	if e.to != "" {
		where = "to " + e.to
	}
	return e.status + ": the server redirects " + where +
		", and codeman follows no redirect; set url to the address the webhook has now"
}

// redirectTarget is the scheme and host a redirect points to: its path,
// query and userinfo may hold another secret, and are never shown.
func redirectTarget(resp *http.Response) string {
	loc, err := resp.Location()
	if err != nil || loc.Host == "" {
		return ""
	}
	return safetext.Line(loc.Scheme + "://" + loc.Host)
}

// webhookError is a Webhook's failure, its text scrubbed of the URL's
// secrets.
type webhookError struct {
	msg string
	err error
}

func (e *webhookError) Error() string { return e.msg }
func (e *webhookError) Unwrap() error { return e.err }

// ntfyActions is ntfy's Actions header of m's buttons, in its JSON form,
// "" for none. The header is ASCII: a label's other characters are \u
// escapes, and its controls, bidi overrides and zero-width characters are
// shown as oneLine shows them, never obeyed. A resolved or test message
// offers none.
func ntfyActions(m Message) string {
	if m.Event != EventRaised && m.Event != EventTest || len(m.Hold.Buttons) == 0 {
		return ""
	}
	type action struct {
		Action  string            `json:"action"`
		Label   string            `json:"label"`
		URL     string            `json:"url"`
		Method  string            `json:"method"`
		Body    string            `json:"body"`
		Headers map[string]string `json:"headers,omitempty"`
		Clear   bool              `json:"clear"`
	}
	var as []action
	for _, b := range m.Hold.Buttons[:min(len(m.Hold.Buttons), MaxButtons)] {
		as = append(as, action{Action: "http", Label: oneLine(b.Label), URL: b.URL, Method: http.MethodPost, Body: b.Body, Headers: b.Headers, Clear: true})
	}
	data, err := json.Marshal(as)
	if err != nil {
		return ""
	}
	return asciiJSON(data)
}

// asciiJSON spells every non-ASCII character of JSON text as a \u
// escape, which JSON reads the same.
func asciiJSON(data []byte) string {
	var b strings.Builder
	for _, r := range string(data) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
