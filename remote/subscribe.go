package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Subscriber follows a reply topic over ntfy's JSON stream and hands on
// each message once. It resumes after a dropped connection, and after a
// restart, from the last message it handled (since=ID, kept in a file),
// so that a button pressed while the daemon was down still counts.
type Subscriber struct {
	// URL is the reply topic's URL, https://ntfy.sh/codeman-replies-….
	URL string
	// AccessToken, when set, is sent as "Authorization: Bearer" for a
	// topic that needs one (a self-hosted ntfy).
	AccessToken string
	// SincePath is the file that keeps the last message handled.
	SincePath string
	// Backfill is how far back a first subscription reads: the life of a
	// token, since an older message holds none that counts.
	Backfill time.Duration
	// Handle gets each message's body. It runs on the subscriber's
	// goroutine, one message at a time.
	Handle func(ctx context.Context, body string)

	Client *http.Client    // nil: one without a timeout (the stream lasts)
	Clock  clockwork.Clock // nil: the real clock
	Log    *slog.Logger    // nil: discard

	mu    sync.Mutex
	state Status
}

// Status is what the subscriber can tell of itself, for health and the
// doctor.
type Status struct {
	Connected bool      `json:"connected"`
	Since     time.Time `json:"since"`           // when it connected, or lost the connection
	Err       string    `json:"error,omitempty"` // why the last connection failed or ended
	Messages  int       `json:"messages"`        // handed on since the daemon started
}

// Status returns the subscriber's state.
func (s *Subscriber) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Backoff bounds between connections.
const (
	minBackoff = time.Second
	maxBackoff = time.Minute
	// steady is how long a connection must last for the backoff to start
	// again from minBackoff.
	steady = 30 * time.Second
	// maxLine bounds one line of the stream.
	maxLine = 64 << 10
)

// Run follows the topic until ctx ends.
func (s *Subscriber) Run(ctx context.Context) {
	if s.Clock == nil {
		s.Clock = clockwork.NewRealClock()
	}
	if s.Client == nil {
		s.Client = &http.Client{}
	}
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	backoff := minBackoff
	for ctx.Err() == nil {
		began := s.Clock.Now()
		err := s.follow(ctx)
		if ctx.Err() != nil {
			return
		}
		s.set(false, err)
		s.Log.Warn("answer topic: connection ended; reconnecting", "err", err, "in", backoff)
		if s.Clock.Since(began) > steady {
			backoff = minBackoff
		}
		select {
		case <-s.Clock.After(backoff):
		case <-ctx.Done():
			return
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// follow makes one connection and reads it until it ends.
func (s *Subscriber) follow(ctx context.Context) error {
	u, err := url.Parse(strings.TrimSuffix(s.URL, "/") + "/json")
	if err != nil {
		return fmt.Errorf("reply topic URL: %w", err)
	}
	q := u.Query()
	q.Set("since", s.since())
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return errors.New("make the request")
	}
	req.Header.Set("User-Agent", "codeman")
	if s.AccessToken != "" {
		req.Header.Set("Authorization", "Bearer "+s.AccessToken)
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text holds the URL, the topic in it
			err = ue.Err
		}
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the server answered %s", resp.Status)
	}
	s.set(true, nil)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 4096), maxLine)
	for sc.Scan() {
		var m struct {
			ID      string `json:"id"`
			Event   string `json:"event"`
			Message string `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.Event != "message" {
			continue // open, keepalive, poll_request; or a line we cannot read
		}
		s.Handle(ctx, m.Message)
		s.handled(m.ID)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the server closed the stream")
}

// since is where a connection resumes: after the last message handled,
// else the start of the backfill.
func (s *Subscriber) since() string {
	if data, err := os.ReadFile(s.SincePath); err == nil {
		if id := strings.TrimSpace(string(data)); id != "" && len(id) < 64 && !strings.ContainsAny(id, "&=?# ") {
			return id
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		s.Log.Warn("answer topic: cannot read where it left off", "err", err)
	}
	return strconv.FormatInt(s.Clock.Now().Add(-s.Backfill).Unix(), 10)
}

// handled notes the message with id as handled.
func (s *Subscriber) handled(id string) {
	s.mu.Lock()
	s.state.Messages++
	s.mu.Unlock()
	if id == "" {
		return
	}
	if err := os.WriteFile(s.SincePath, []byte(id+"\n"), 0o600); err != nil {
		s.Log.Warn("answer topic: cannot keep where it left off; a restart reads the topic again", "err", err)
	}
}

func (s *Subscriber) set(connected bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.Connected, s.state.Since, s.state.Err = connected, s.Clock.Now(), ""
	if err != nil {
		s.state.Err = err.Error()
	}
}
