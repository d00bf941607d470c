package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/jonboulle/clockwork"
)

// A daemon that has not finished adopting answers health at once but holds
// pane requests, so a status right after a restart never lists too few.
func TestAPI_PanesWaitForAdoption(t *testing.T) {
	d := New(Options{})
	handler := d.routes()

	health := httptest.NewRecorder()
	handler.ServeHTTP(health, httptest.NewRequest("GET", "/v1/health", nil))
	if health.Code != http.StatusOK {
		t.Fatalf("health before adoption: %d %s", health.Code, health.Body)
	}

	answered := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/panes", nil))
		answered <- rec
	}()
	select {
	case rec := <-answered:
		t.Fatalf("pane list answered before adoption: %d %s", rec.Code, rec.Body)
	case <-time.After(50 * time.Millisecond):
	}
	close(d.adopted)
	select {
	case rec := <-answered:
		if rec.Code != http.StatusOK {
			t.Fatalf("pane list after adoption: %d %s", rec.Code, rec.Body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pane list not answered after adoption")
	}
}

// A client that gives up while adoption runs is let go.
func TestAPI_WaitForAdoptionEndsWithRequest(t *testing.T) {
	d := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	d.routes().ServeHTTP(rec, httptest.NewRequest("GET", "/v1/panes", nil).WithContext(ctx))
	if rec.Body.Len() != 0 {
		t.Fatalf("a cancelled request got an answer: %s", rec.Body)
	}
}

// deadlineRequest is a request to the API that gives the daemon deadline.
func deadlineRequest(method, path, body string, deadline time.Time) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set(api.DeadlineHeader, deadline.UTC().Format(time.RFC3339Nano))
	return req
}

// A request the daemon gets to after its deadline is refused before it
// does anything: its client was told it failed. One within it runs.
func TestAPI_DeadlinePassedRefused(t *testing.T) {
	clock := clockwork.NewFakeClockAt(time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC))
	d := New(Options{Clock: clock})
	close(d.adopted)
	handler := d.routes()
	body := `{"pane":"tmux:/tmp/no-such-server:%1","paused":true}`

	late := httptest.NewRecorder()
	handler.ServeHTTP(late, deadlineRequest("POST", "/v1/panes/pause", body, clock.Now().Add(-1500*time.Millisecond)))
	if late.Code != http.StatusRequestTimeout || !strings.Contains(late.Body.String(), "1.5s after its deadline") ||
		!strings.Contains(late.Body.String(), "nothing was done") {
		t.Fatalf("a request past its deadline: %d %s, want 408 saying nothing was done", late.Code, late.Body)
	}

	inTime := httptest.NewRecorder()
	handler.ServeHTTP(inTime, deadlineRequest("POST", "/v1/panes/pause", body, clock.Now().Add(time.Second)))
	if inTime.Code == http.StatusRequestTimeout || !strings.Contains(inTime.Body.String(), "no-such-server: no such file") {
		t.Fatalf("a request within its deadline: %d %s, want the pause's own answer", inTime.Code, inTime.Body)
	}

	bad := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/panes/pause", strings.NewReader(body))
	req.Header.Set(api.DeadlineHeader, "in ten seconds")
	handler.ServeHTTP(bad, req)
	if bad.Code != http.StatusBadRequest || !strings.Contains(bad.Body.String(), api.DeadlineHeader) {
		t.Fatalf("a bad deadline: %d %s, want 400 naming the header", bad.Code, bad.Body)
	}
}

// A request whose deadline passes while the daemon adopts is answered
// with why, for the client that still waits.
func TestAPI_DeadlineDuringAdoption(t *testing.T) {
	d := New(Options{})
	rec := httptest.NewRecorder()
	answered := make(chan struct{})
	go func() {
		d.routes().ServeHTTP(rec, deadlineRequest("GET", "/v1/panes", "", time.Now().Add(20*time.Millisecond)))
		close(answered)
	}()
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("a request past its deadline still waits for adoption after 10s")
	}
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "still adopting") {
		t.Fatalf("deadline during adoption: %d %s", rec.Code, rec.Body)
	}
}

// A pause request without "paused" is refused naming the field, not taken
// for a resume.
func TestAPI_PauseNeedsPaused(t *testing.T) {
	d := New(Options{})
	close(d.adopted)
	handler := d.routes()
	for _, body := range []string{`{"pane":"tmux:/tmp/x:%1"}`, `{"pane":"tmux:/tmp/x:%1","paused":null}`, `{"pane":"tmux:/tmp/x:%1","pause":false}`} {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/panes/pause", strings.NewReader(body)))
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `the field \"paused\" is missing`) {
			t.Errorf("pause %s: %d %s, want 400 naming the field paused", body, rec.Code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/panes/pause", strings.NewReader(`{"pane":"tmux:/tmp/x:%1","paused":false}`)))
	if rec.Code == http.StatusBadRequest {
		t.Errorf("a resume with paused false was refused: %s", rec.Body)
	}
}
