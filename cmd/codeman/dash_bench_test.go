package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/respawn"
)

// fakeDaemon answers the dash's requests on the daemon's socket with
// made-up panes, and streams the events the benchmark publishes.
type fakeDaemon struct {
	mu     sync.Mutex
	panes  map[string]api.PaneStatus
	events chan api.Event
}

func serveFakeDaemon(b *testing.B, socket string, n int) *fakeDaemon {
	b.Helper()
	f := &fakeDaemon{panes: map[string]api.PaneStatus{}, events: make(chan api.Event, 16)}
	since := time.Now().Add(-time.Hour)
	for i := range n {
		addr := fmt.Sprintf("tmux:/tmp/bench/default:%%%d", i)
		f.panes[addr] = api.PaneStatus{
			Pane: addr, Target: fmt.Sprintf("bench-%03d:0.0 (%%%d)", i, i), Command: "claude", Mode: "control",
			Status: respawn.Status{State: "watching", Since: since, Evidence: respawn.Evidence{Tokens: -1},
				Decisions: []respawn.Decision{{At: since, Kind: respawn.DecisionState, From: "stopped", To: "watching", Reason: "started"}}},
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/health", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(api.Health{PID: os.Getpid(), Version: "bench", Socket: socket, Panes: n})
	})
	mux.HandleFunc("GET /v1/panes", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if addr := r.URL.Query().Get("pane"); addr != "" {
			json.NewEncoder(w).Encode(f.panes[addr])
			return
		}
		var all []api.PaneStatus
		for _, p := range f.panes {
			all = append(all, p)
		}
		slices.SortFunc(all, func(a, b api.PaneStatus) int { return strings.Compare(a.Pane, b.Pane) })
		json.NewEncoder(w).Encode(all)
	})
	mux.HandleFunc("GET /v1/events", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case e := <-f.events:
				json.NewEncoder(w).Encode(e)
				w.(http.Flusher).Flush()
			}
		}
	})
	if err := os.MkdirAll(filepath.Dir(socket), 0o700); err != nil {
		b.Fatal(err)
	}
	l, err := net.Listen("unix", socket)
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(l)
	b.Cleanup(func() { srv.Close() })
	return f
}

// decide gives the pane a new newest decision and publishes its event.
func (f *fakeDaemon) decide(addr, reason string) {
	f.mu.Lock()
	p := f.panes[addr]
	p.Status.Decisions = []respawn.Decision{{At: time.Now(), Kind: respawn.DecisionSkip, Reason: reason}}
	f.panes[addr] = p
	f.mu.Unlock()
	f.events <- api.Event{At: time.Now(), Pane: addr, Kind: "decision"}
}

// BenchmarkDash_Program runs the real codeman dash (the test binary as
// codeman) in a 200x50 tmux pane against a fake daemon of 100 panes. It
// measures how soon a decision shows on the pane's screen after its event
// (capture-pane polled without pause, which adds its own few ms), over 20
// events, then the dash's CPU use over 10 s of quiet. Run it once:
// -benchtime=1x.
func BenchmarkDash_Program(b *testing.B) {
	dir, err := os.MkdirTemp("", "cmb") // short: the socket path must fit sun_path
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	b.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "run"))
	b.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	b.Setenv("HOME", dir)
	b.Setenv(asCodemanEnv, "1")
	os.Mkdir(filepath.Join(dir, "run"), 0o700)
	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		b.Fatal(err)
	}
	fake := serveFakeDaemon(b, paths.Socket, 100)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	srv := tmuxtest.NewServerWith(b, tmuxtest.Options{Env: append(os.Environ(), "TERM=xterm-256color", "LANG=C.UTF-8")})
	pane := srv.NewSession("dash", exe, "dash")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "100 panes") }, "the dash's 100 rows", 20*time.Second)
	pid, err := strconv.Atoi(strings.TrimSpace(srv.Tmux("display-message", "-p", "-t", pane, "#{pane_pid}")))
	if err != nil {
		b.Fatal(err)
	}

	var lat []time.Duration
	for i := range 20 {
		reason := fmt.Sprintf("benchmark event %d", i)
		start := time.Now()
		fake.decide(fmt.Sprintf("tmux:/tmp/bench/default:%%%d", i), reason)
		for !strings.Contains(srv.Capture(pane), reason) {
			if time.Since(start) > 10*time.Second {
				b.Fatalf("%q not on screen after 10s:\n%s", reason, srv.Capture(pane))
			}
		}
		lat = append(lat, time.Since(start))
		time.Sleep(200 * time.Millisecond) // past the debounce: each event is a first
	}
	slices.Sort(lat)

	before := cpuTicks(b, pid)
	time.Sleep(10 * time.Second)
	idle := float64(cpuTicks(b, pid)-before) / clockTicks / 10 * 100

	for b.Loop() {
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "redraw-ms-p50")
	b.ReportMetric(float64(lat[len(lat)-1])/1e6, "redraw-ms-max")
	b.ReportMetric(idle, "idle-cpu-%")
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on Linux.
const clockTicks = 100

// cpuTicks is the user and system time the process has used.
func cpuTicks(b *testing.B, pid int) int64 {
	b.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("read the dash's CPU time: %v (this benchmark needs Linux's /proc)", err)
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 12th and 13th.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return user + sys
}
