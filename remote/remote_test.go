package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/fakentfy"
	"github.com/codeman-dev/codeman/respawn"
)

var t0 = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

func testKey(t *testing.T) []byte {
	t.Helper()
	key, err := LoadKey(filepath.Join(t.TempDir(), "state", "answer.key"))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestLoadKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "answer.key")
	key, err := LoadKey(path)
	if err != nil || len(key) != KeySize {
		t.Fatalf("LoadKey = %d bytes, %v", len(key), err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v, %v; want mode 0600", info.Mode(), err)
	}
	again, err := LoadKey(path)
	if err != nil || string(again) != string(key) {
		t.Fatalf("a second LoadKey gave another key (%v)", err)
	}
	// A key others may read, of another size, or behind a link is refused
	// by name, never replaced.
	os.Chmod(path, 0o644)
	if _, err := LoadKey(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "read by others") {
		t.Errorf("key with mode 0644: %v", err)
	}
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte("short"), 0o600)
	if _, err := LoadKey(path); err == nil || !strings.Contains(err.Error(), "5 bytes") {
		t.Errorf("short key: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link.key")
	os.Symlink(path, link)
	if _, err := LoadKey(link); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("key behind a link: %v", err)
	}
}

func TestToken(t *testing.T) {
	key := testKey(t)
	c := Claims{Pane: "tmux:/tmp/tmux-0/default:%3", Need: "0123456789abcdef", Choice: "2", Expires: t0.Add(time.Hour).Unix()}
	tok, err := Sign(key, c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Verify(key, tok+"\n", t0)
	if err != nil || got.Pane != c.Pane || got.Need != c.Need || got.Choice != c.Choice || got.Nonce == "" {
		t.Fatalf("Verify = %+v, %v", got, err)
	}
	if other, _ := Sign(key, c); other == tok {
		t.Error("two tokens of the same claims are the same: their nonces do not differ")
	}
	if _, err := Verify(key, tok, t0.Add(time.Hour)); !errors.Is(err, ErrExpired) {
		t.Errorf("at its expiry: %v, want expired", err)
	}
	if _, err := Verify(testKey(t), tok, t0); !errors.Is(err, ErrForged) {
		t.Errorf("under another key: %v, want forged", err)
	}
	// Another choice in the same signature is forged.
	p, sig, _ := strings.Cut(tok, ".")
	tampered := strings.Replace(p, p[len(p)-4:], "AAAA", 1) + "." + sig
	if _, err := Verify(key, tampered, t0); !errors.Is(err, ErrForged) {
		t.Errorf("tampered: %v, want forged", err)
	}
	for _, junk := range []string{"", "hello", "a.b.c", strings.Repeat("x", 3000) + ".y", "\x1b]52;c;aGk=\x07"} {
		if _, err := Verify(key, junk, t0); !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrForged) {
			t.Errorf("Verify(%q) = %v", junk, err)
		}
	}
}

func TestUsed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers-used.json")
	c := Claims{Nonce: "n1", Expires: t0.Add(time.Hour).Unix()}
	if err := NewUsed(path).Take(c, t0); err != nil {
		t.Fatal(err)
	}
	// Another Used on the same file, as after a restart.
	if err := NewUsed(path).Take(c, t0.Add(time.Minute)); !errors.Is(err, ErrUsed) {
		t.Errorf("taken twice: %v", err)
	}
	// An expired nonce is pruned once its token can no longer verify.
	if err := NewUsed(path).Take(Claims{Nonce: "n2", Expires: t0.Add(3 * time.Hour).Unix()}, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "n1") || !strings.Contains(string(data), "n2") {
		t.Errorf("used file %s, want n1 pruned and n2 kept", data)
	}
	os.WriteFile(path, []byte("{broken"), 0o600)
	if err := NewUsed(path).Take(Claims{Nonce: "n3", Expires: t0.Add(time.Hour).Unix()}, t0); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a broken file: %v, want an error naming it", err)
	}
}

func question() respawn.Need {
	a := respawn.Ask{Kind: respawn.NeedQuestion, Text: "Which database?", Options: []string{"PostgreSQL", "SQLite", "Redis", "Type something."}, Typed: []int{3}}
	return respawn.Need{Kind: respawn.NeedQuestion, ID: a.Fingerprint(), Ask: &a}
}

func permission() respawn.Need {
	a := respawn.Ask{Kind: respawn.NeedPermission, Text: "rm -rf ./build", Options: []string{"Yes", "Yes, and don't ask again", "No"}}
	return respawn.Need{Kind: respawn.NeedPermission, ID: a.Fingerprint(), Ask: &a}
}

func TestButtons(t *testing.T) {
	key := testKey(t)
	a := &Answerer{Key: key, ReplyURL: "https://ntfy.example/replies", AccessToken: "tk_1", Kinds: DefaultKinds, Clock: clockwork.NewFakeClockAt(t0)}
	bs := a.Buttons("p", permission())
	if len(bs) != 2 || bs[0].Label != "Allow" || bs[1].Label != "Deny" {
		t.Fatalf("permission buttons %+v", bs)
	}
	for i, want := range []string{"1", "3"} {
		c, err := Verify(key, bs[i].Body, t0)
		if err != nil || c.Choice != want || c.Pane != "p" || c.Need != permission().ID || c.Expires != t0.Add(DefaultLifetime).Unix() {
			t.Errorf("%s: claims %+v, %v", bs[i].Label, c, err)
		}
		if bs[i].URL != a.ReplyURL || bs[i].Headers["Authorization"] != "Bearer tk_1" {
			t.Errorf("%s posts to %s with %v", bs[i].Label, bs[i].URL, bs[i].Headers)
		}
	}
	bs = a.Buttons("p", question())
	if len(bs) != 3 || bs[0].Label != "1. PostgreSQL" || bs[2].Label != "3. Redis" {
		t.Fatalf("question buttons %+v", bs)
	}
	a.Kinds = []respawn.NeedKind{respawn.NeedPermission}
	if bs := a.Buttons("p", question()); len(bs) != 0 {
		t.Errorf("a kind not allowed got buttons %+v", bs)
	}
	if bs := a.Buttons("p", respawn.Need{Kind: respawn.NeedPermission, Reason: "Bash"}); len(bs) != 0 {
		t.Errorf("a need without its dialog got buttons %+v", bs)
	}
}

// recorder is an Answerer whose answers and refusals are recorded.
type recorder struct {
	mu       sync.Mutex
	answers  []respawn.Answer
	refusals []string
	tested   int
}

func (r *recorder) answerer(t *testing.T, clock clockwork.Clock) *Answerer {
	return &Answerer{Key: testKey(t), Used: NewUsed(filepath.Join(t.TempDir(), "used.json")), ReplyURL: "http://x/replies", Kinds: DefaultKinds, Clock: clock,
		Answer: func(_ context.Context, pane string, a respawn.Answer) (respawn.Answered, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.answers = append(r.answers, a)
			return respawn.Answered{Option: 1}, nil
		},
		Refused: func(pane, reason string) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.refusals = append(r.refusals, reason)
		},
		Tested: func() { r.mu.Lock(); r.tested++; r.mu.Unlock() },
	}
}

// A token is typed once; the same token again, a forged one, an expired
// one and junk are refused, the signed ones in the pane's decisions.
func TestTake(t *testing.T) {
	clock := clockwork.NewFakeClockAt(t0)
	var r recorder
	a := r.answerer(t, clock)
	bs := a.Buttons("p", question())
	a.Take(context.Background(), bs[1].Body)
	a.Take(context.Background(), bs[1].Body)
	forged, _ := Sign(testKey(t), Claims{Pane: "p", Need: question().ID, Choice: "1", Expires: t0.Add(time.Hour).Unix()})
	a.Take(context.Background(), forged)
	a.Take(context.Background(), "hello from someone who found the topic")
	clock.Advance(DefaultLifetime)
	a.Take(context.Background(), bs[0].Body)
	test, _ := a.TestButtons()
	a.Take(context.Background(), test[0].Body)

	if len(r.answers) != 1 || r.answers[0].Choice != "2" || r.answers[0].Need != question().ID || r.answers[0].From != "ntfy" {
		t.Errorf("answers %+v, want option 2 once, from ntfy", r.answers)
	}
	if len(r.refusals) != 2 || !strings.Contains(r.refusals[0], "used already") || !strings.Contains(r.refusals[1], "expired") {
		t.Errorf("refusals %q, want the reused and the expired token", r.refusals)
	}
	if r.tested != 1 {
		t.Errorf("test answers %d, want 1", r.tested)
	}
}

// The subscriber hands on each message once, resumes after a dropped
// stream from the last message it handled, and after a restart from
// the file that keeps it; it sends the access token.
func TestSubscriber(t *testing.T) {
	srv := fakentfy.Start(t)
	srv.RequireToken("tk_1")
	since := filepath.Join(t.TempDir(), "since")
	var mu sync.Mutex
	var got []string
	run := func() (*Subscriber, context.CancelFunc) {
		s := &Subscriber{URL: srv.URL() + "/replies", AccessToken: "tk_1", SincePath: since, Backfill: time.Hour,
			Handle: func(_ context.Context, body string) { mu.Lock(); got = append(got, body); mu.Unlock() }}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		return s, func() { cancel(); <-done }
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(got) }
	srv.Publish("replies", "before", nil) // within the backfill
	s, stop := run()
	srv.Wait(t, "the first message", 10*time.Second, func() bool { return count() == 1 })
	if !s.Status().Connected {
		t.Errorf("status %+v, want connected", s.Status())
	}
	srv.Publish("replies", "one", nil)
	srv.Wait(t, "the second", 10*time.Second, func() bool { return count() == 2 })
	srv.DropStreams()
	srv.Wait(t, "the stream back", 10*time.Second, func() bool { return srv.Subscribers("replies") == 1 && s.Status().Connected })
	srv.Publish("replies", "two", nil)
	srv.Wait(t, "the third", 10*time.Second, func() bool { return count() == 3 })
	stop()
	srv.Publish("replies", "while down", nil)
	_, stop = run()
	srv.Wait(t, "the message sent while down", 10*time.Second, func() bool { return count() == 4 })
	stop()
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, ",") != "before,one,two,while down" {
		t.Errorf("handled %q, want each message once, in order", got)
	}
}
