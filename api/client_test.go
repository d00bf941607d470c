package api

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A daemon that fails to start is reported at once with its own words,
// not after the start timeout.
func TestConnect_ReportsFailedStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := Paths{Socket: filepath.Join(dir, "none.sock"), State: dir, Log: filepath.Join(dir, "daemon.log"), UserLock: filepath.Join(dir, "u.lock")}
	for _, tc := range []struct{ script, want string }{
		{"echo 'error: listen on unix socket: no room' >&3; exit 1", "listen on unix socket: no room"},
		{"exit 1", "exited before it listened"},
	} {
		exe := filepath.Join(dir, "fake-daemon")
		if err := os.WriteFile(exe, []byte("#!/bin/sh\n"+tc.script+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := Connect(context.Background(), paths, exe)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("connect with %q: %v; want %q", tc.script, err, tc.want)
		}
		if took := time.Since(start); took > startTimeout/2 {
			t.Fatalf("connect took %s to report a failed start", took)
		}
	}
}

// Every request tells the daemon when its client stops waiting: a little
// before its own deadline, so an answer made in time reaches it.
func TestClient_SendsDeadline(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get(DeadlineHeader)
		json.NewEncoder(w).Encode(PaneStatus{})
	})}
	go srv.Serve(ln)
	defer srv.Close()

	deadline := time.Now().Add(10 * time.Second)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	if _, err := NewClient(socket).Pause(ctx, "tmux:/tmp/s:%1", true); err != nil {
		t.Fatal(err)
	}
	sent, err := time.Parse(time.RFC3339Nano, <-got)
	if err != nil {
		t.Fatalf("header %s: %v", DeadlineHeader, err)
	}
	if early := deadline.Sub(sent); early < 0 || early > maxDeadlineMargin {
		t.Fatalf("deadline sent %s, %s before the client's own; want at most %s before", sent, early, maxDeadlineMargin)
	}
	if got := daemonDeadline(deadline.Add(-time.Second), deadline); deadline.Sub(got) != 100*time.Millisecond {
		t.Fatalf("a request of 1s gives the daemon %s less, want a tenth", deadline.Sub(got))
	}
}
