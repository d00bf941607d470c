package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A daemon that has not finished adopting answers health at once but holds
// pane requests, so a status right after a restart never lists too few.
func TestAPI_PanesWaitForAdoption(t *testing.T) {
	d := New(Options{})
	api := d.routes()

	health := httptest.NewRecorder()
	api.ServeHTTP(health, httptest.NewRequest("GET", "/v1/health", nil))
	if health.Code != http.StatusOK {
		t.Fatalf("health before adoption: %d %s", health.Code, health.Body)
	}

	answered := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/panes", nil))
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
