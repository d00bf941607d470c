package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func TestServerFromEnv(t *testing.T) {
	tests := []struct {
		env, socket string
		wantErr     bool
	}{
		{"/tmp/tmux-1000/default,1234,0", "/tmp/tmux-1000/default", false},
		{"/tmp/tmux-0/my,odd:socket", "/tmp/tmux-0/my", false},
		{"/only/socket", "/only/socket", false},
		{"", "", true},
		{",1,2", "", true},
		{"relative/socket,1,0", "", true},
	}
	for _, tt := range tests {
		srv, err := ServerFromEnv(tt.env)
		if (err != nil) != tt.wantErr || srv.Socket != tt.socket {
			t.Errorf("ServerFromEnv(%q) = %q, %v; want %q, error %v", tt.env, srv.Socket, err, tt.socket, tt.wantErr)
		}
	}
}

func TestDefaultServer(t *testing.T) {
	env := map[string]string{"TMUX_TMPDIR": "/run/t"}
	got := DefaultServer(func(k string) string { return env[k] })
	if want := fmt.Sprintf("/run/t/tmux-%d/default", os.Getuid()); got.Socket != want {
		t.Errorf("DefaultServer = %q, want %q", got.Socket, want)
	}
	got = DefaultServer(func(string) string { return "" })
	if want := fmt.Sprintf("/tmp/tmux-%d/default", os.Getuid()); got.Socket != want {
		t.Errorf("DefaultServer = %q, want %q", got.Socket, want)
	}
}

func TestParseAddress(t *testing.T) {
	tests := []struct {
		addr, socket, pane string
		wantErr            bool
	}{
		{"tmux:/tmp/tmux-0/default:%3", "/tmp/tmux-0/default", "%3", false},
		{"tmux:/tmp/odd:name/sock:%12", "/tmp/odd:name/sock", "%12", false},
		{"screen:123.pts-0.host:2", "", "", true},
		{"tmux:/tmp/tmux-0/default", "", "", true},
		{"tmux:/tmp/tmux-0/default:3", "", "", true},
		{"tmux:relative:%3", "", "", true},
		{"tmux::%3", "", "", true},
	}
	for _, tt := range tests {
		srv, pane, err := ParseAddress(tt.addr)
		if (err != nil) != tt.wantErr || srv.Socket != tt.socket || pane != tt.pane {
			t.Errorf("ParseAddress(%q) = %q, %q, %v; want %q, %q, error %v",
				tt.addr, srv.Socket, pane, err, tt.socket, tt.pane, tt.wantErr)
		}
	}
}

func TestPaneInfo_Address(t *testing.T) {
	p := PaneInfo{Server: Server{Socket: "/tmp/tmux-0/default"}, ID: "%3", Session: "work", Window: "1", Index: 0}
	if got := p.Address(); got != "tmux:/tmp/tmux-0/default:%3" {
		t.Errorf("Address() = %q", got)
	}
	srv, pane, err := ParseAddress(p.Address())
	if err != nil || srv != p.Server || pane != p.ID {
		t.Errorf("ParseAddress(Address()) = %v, %q, %v", srv, pane, err)
	}
	if got := p.Target(); got != "work:1.0" {
		t.Errorf("Target() = %q", got)
	}
}

func TestServer_RunNeedsSocket(t *testing.T) {
	_, err := Server{}.Run(context.Background(), "list-sessions")
	if err == nil || !strings.Contains(err.Error(), "no server socket") {
		t.Errorf("Run on Server{} = %v, want a no-socket error", err)
	}
}

// resolveFixture is a server with two sessions: "work" (window 0 with
// one pane, window 1 "edit" with two) and "other".
func resolveFixture(t *testing.T) (*tmuxtest.Server, Server, map[string]string) {
	ts := tmuxtest.NewServer(t)
	panes := map[string]string{}
	panes["work:0.0"] = ts.NewSession("work", "cat")
	panes["work:1.0"] = strings.TrimSpace(ts.Tmux("new-window", "-t", "work:1", "-n", "edit", "-P", "-F", "#{pane_id}", "cat"))
	panes["work:1.1"] = strings.TrimSpace(ts.Tmux("split-window", "-t", "work:1", "-P", "-F", "#{pane_id}", "cat"))
	panes["other:0.0"] = ts.NewSession("other", "cat")
	// tmux starts each program through a shell, which a loaded machine
	// shows as the pane's command for a moment.
	for _, id := range panes {
		wait.For(t, "cat in pane "+id, 5*time.Second, func() bool {
			out, _ := ts.Run("display-message", "-p", "-t", id, "#{pane_current_command}")
			return strings.TrimSpace(out) == "cat"
		})
	}
	return ts, Server{Socket: ts.Socket()}, panes
}

func TestServer_ResolvePane(t *testing.T) {
	ts, srv, panes := resolveFixture(t)
	ctx := context.Background()
	serverPID := strings.TrimSpace(ts.Tmux("display-message", "-p", "#{pid}"))
	tests := []struct {
		target, want string
	}{
		{panes["work:1.1"], "work:1.1"},
		{"work:1.0", "work:1.0"},
		{"work:1", "work:1.1"},      // the active pane: split-window selects the new one
		{"work:edit.0", "work:1.0"}, // window by name
		{"=other:0.0", "other:0.0"},
		{"other", "other:0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			p, err := srv.ResolvePane(ctx, tt.target)
			if err != nil {
				t.Fatal(err)
			}
			if p.Target() != tt.want || p.ID != panes[tt.want] {
				t.Errorf("resolved to %s (%s), want %s (%s)", p.Target(), p.ID, tt.want, panes[tt.want])
			}
			if p.Server != srv || p.Command != "cat" || p.PID <= 0 || p.Dead ||
				p.Width <= 0 || p.Height <= 0 || fmt.Sprint(p.ServerPID) != serverPID {
				t.Errorf("pane info %+v (server pid %s)", p, serverPID)
			}
		})
	}
}

func TestServer_ResolvePaneErrors(t *testing.T) {
	_, srv, _ := resolveFixture(t)
	ctx := context.Background()
	tests := []struct {
		target, want string
	}{
		{"%99", "no pane %99 on tmux server " + srv.Socket},
		{"work:7", "no pane work:7 on tmux server " + srv.Socket + " (can't find window: 7)"},
		{"work:1.5", "no pane work:1.5 on tmux server " + srv.Socket + " (can't find pane: 5)"},
		{"nosuch:0", "no pane nosuch:0 on tmux server " + srv.Socket + " (can't find session: nosuch)"},
	}
	for _, tt := range tests {
		_, err := srv.ResolvePane(ctx, tt.target)
		if err == nil || err.Error() != tt.want || !errors.Is(err, ErrNoPane) {
			t.Errorf("ResolvePane(%q) = %v, want %q (ErrNoPane)", tt.target, err, tt.want)
		}
	}
	if _, err := srv.ResolvePane(ctx, ""); err == nil || !strings.Contains(err.Error(), "TMUX_PANE") {
		t.Errorf("ResolvePane(\"\") = %v, want an error naming TMUX_PANE", err)
	}
	gone := Server{Socket: srv.Socket + "-gone"}
	_, err := gone.ResolvePane(ctx, "%0")
	if !errors.Is(err, ErrNoServer) || !strings.Contains(err.Error(), gone.Socket) {
		t.Errorf("ResolvePane without a server = %v, want ErrNoServer naming the socket", err)
	}
}

func TestLocate(t *testing.T) {
	_, srv, panes := resolveFixture(t)
	ctx := context.Background()
	env := map[string]string{"TMUX": srv.Socket + ",1,0", "TMUX_PANE": panes["work:1.0"]}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		target, want string
	}{
		{"", panes["work:1.0"]},
		{"other:0", panes["other:0.0"]},
		{"tmux:" + srv.Socket + ":" + panes["work:1.1"], panes["work:1.1"]},
	}
	for _, tt := range tests {
		p, err := Locate(ctx, tt.target, getenv)
		if err != nil || p.ID != tt.want {
			t.Errorf("Locate(%q) = %s, %v; want %s", tt.target, p.ID, err, tt.want)
		}
	}
	delete(env, "TMUX_PANE")
	if _, err := Locate(ctx, "", getenv); err == nil || !strings.Contains(err.Error(), "TMUX_PANE") {
		t.Errorf("Locate without TMUX_PANE = %v", err)
	}
}

func TestServer_Version(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	srv := Server{Socket: ts.Socket()}
	v, err := srv.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseVersion(v); err != nil {
		t.Errorf("server version %q does not parse: %v", v, err)
	}
}

// A pane resolved over any session's control connection reads as one
// resolved by a tmux process, the server's version included; a wrong target
// is the same error.
func TestResolvePaneWith_ControlConnection(t *testing.T) {
	_, srv, panes := resolveFixture(t)
	ctx := context.Background()
	client := NewClient(srv, "other", ClientOptions{})
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if !client.Connected() {
		t.Fatal("Start returned before its control connection was up")
	}
	for _, target := range []string{panes["work:1.1"], "work:1.0", "other"} {
		want, err := srv.ResolvePane(ctx, target)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ResolvePaneWith(ctx, client, srv, target)
		if err != nil || got != want {
			t.Errorf("ResolvePaneWith(%q) = %+v, %v; want %+v", target, got, err, want)
		}
		if err := CheckVersion(got.Version); err != nil {
			t.Errorf("version %q: %v", got.Version, err)
		}
	}
	_, err := ResolvePaneWith(ctx, client, srv, "work:7")
	var np *NoPaneError
	if !errors.As(err, &np) || np.Target != "work:7" {
		t.Errorf("ResolvePaneWith(work:7) = %v, want a NoPaneError", err)
	}
}

// Start still says when the session does not exist.
func TestClient_StartWithoutSession(t *testing.T) {
	_, srv, _ := resolveFixture(t)
	client := NewClient(srv, "nosuch", ClientOptions{ServerVersion: "3.3a"})
	err := client.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		client.Close()
		t.Fatalf("Start of a missing session = %v, want an error naming it", err)
	}
}

// PaneAddress makes the address Locate would return for a pane named by
// id, and leaves every other target to Locate.
func TestPaneAddress(t *testing.T) {
	ts, srv, panes := resolveFixture(t)
	pane := panes["work:1.1"]
	env := map[string]string{"TMUX": srv.Socket + ",1,0", "TMUX_PANE": pane}
	getenv := func(k string) string { return env[k] }
	for _, target := range []string{pane, "", "tmux:" + srv.Socket + ":" + pane} {
		want, err := Locate(context.Background(), target, getenv)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := PaneAddress(target, getenv); !ok || got != want.Address() {
			t.Errorf("PaneAddress(%q) = %q, %v; want %q", target, got, ok, want.Address())
		}
	}
	gone := "tmux:" + ts.Socket() + "-gone:%1"
	for _, target := range []string{"work:1.0", "work", "screen:s:0", gone, "tmux:relative:%1"} {
		if got, ok := PaneAddress(target, getenv); ok {
			t.Errorf("PaneAddress(%q) = %q without asking tmux", target, got)
		}
	}
	delete(env, "TMUX_PANE")
	if got, ok := PaneAddress("", getenv); ok {
		t.Errorf("PaneAddress(\"\") outside a pane = %q", got)
	}
}
