//go:build !darwin

package notify

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// shortDir is a temporary directory whose socket paths fit sun_path.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "nt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestDesktop_Available(t *testing.T) {
	noBus := shortDir(t)
	fileBus := shortDir(t)
	if err := os.WriteFile(filepath.Join(fileBus, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sockBus := shortDir(t)
	l, err := net.Listen("unix", filepath.Join(sockBus, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct {
		name string
		env  map[string]string
		ok   bool
	}{
		{"nothing set", nil, false},
		{"a runtime dir without a bus", map[string]string{"XDG_RUNTIME_DIR": noBus}, false},
		{"a file that is no socket", map[string]string{"XDG_RUNTIME_DIR": fileBus}, false},
		{"a relative runtime dir", map[string]string{"XDG_RUNTIME_DIR": "run"}, false},
		{"the runtime dir's bus", map[string]string{"XDG_RUNTIME_DIR": sockBus}, true},
		{"DBUS_SESSION_BUS_ADDRESS", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, true},
	} {
		err := NewDesktop(envOf(tc.env)).Available()
		if tc.ok != (err == nil) || !tc.ok && !errors.Is(err, ErrNoSessionBus) {
			t.Errorf("%s: Available = %v, want ok %t", tc.name, err, tc.ok)
		}
	}
	err = NewDesktop(envOf(nil)).Send(context.Background(), TestMessage(t0))
	if !errors.Is(err, ErrNoSessionBus) || !strings.Contains(err.Error(), "DBUS_SESSION_BUS_ADDRESS is unset") {
		t.Errorf("Send without a bus = %v", err)
	}
}

func TestEscapeBusPath(t *testing.T) {
	if got := escapeBusPath("/run/user/1000/my bus,=;"); got != "/run/user/1000/my%20bus%2c%3d%3b" {
		t.Errorf("escapeBusPath = %q", got)
	}
}

// sessionBus starts a private dbus-daemon whose socket is dir/bus.
func sessionBus(t *testing.T) (dir string) {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("needs dbus-daemon (Debian: dbus-daemon)")
	}
	dir = shortDir(t)
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path="+filepath.Join(dir, "bus"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The socket file shows before dbus-daemon listens on it: wait until
	// it takes a connection.
	wait.For(t, "dbus-daemon to listen", waitLong, func() bool {
		c, err := net.Dial("unix", filepath.Join(dir, "bus"))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return dir
}

// notificationServer is org.freedesktop.Notifications on a test bus.
type notificationServer struct{ got chan []any }

func (s *notificationServer) Notify(app string, id uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.got <- []any{app, summary, body, hints["urgency"].Value()}
	return 7, nil
}

func serveNotifications(t *testing.T, addr string) *notificationServer {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &notificationServer{got: make(chan []any, 4)}
	if err := conn.Export(s, notifyPath, notifyService); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(notifyService, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("request %s: %v, %v", notifyService, reply, err)
	}
	return s
}

func TestDesktop_SendsOverSessionBus(t *testing.T) {
	dir := sessionBus(t)
	d := NewDesktop(envOf(map[string]string{"XDG_RUNTIME_DIR": dir}))
	if err := d.Available(); err != nil {
		t.Fatalf("Available = %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	err := d.Send(ctx, TestMessage(t0))
	if err == nil || !strings.Contains(err.Error(), notifyService) {
		t.Errorf("Send with no notification server = %v, want an error naming %s", err, notifyService)
	}

	srv := serveNotifications(t, "unix:path="+filepath.Join(dir, "bus"))
	h := Hold{Pane: "%3", Target: "work:1.0 (%3)", Kind: "menu", Reason: "a menu codeman leaves to you", Since: t0}
	if err := d.Send(ctx, raisedMessage(h, DefaultPolicy(), 1, at(time.Minute))); err != nil {
		t.Fatal(err)
	}
	got := wait.Receive(t, "the notification", waitLong, srv.got, func([]any) bool { return true })
	want := []any{"codeman", "work:1.0 (%3) needs you (menu, 1m)", "a menu codeman leaves to you", urgencyNormal}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("server got %v, want %v", got, want)
	}
}

// A session bus that takes the connection and never answers holds a test
// no longer than the desktop's bound, and the result says so.
func TestDesktop_SilentBusTimesOut(t *testing.T) {
	dir := shortDir(t)
	l, err := net.Listen("unix", filepath.Join(dir, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			accepted <- c // held open, never answered
		}
	}()
	defer func() {
		select {
		case c := <-accepted:
			c.Close()
		default:
		}
	}()
	fc := clockwork.NewFakeClockAt(t0)
	d := NewDesktop(envOf(map[string]string{"XDG_RUNTIME_DIR": dir}))
	done := make(chan []Result, 1)
	go func() { done <- Test(context.Background(), fc, []Channel{d}, TestMessage(t0)) }()
	armed(t, fc)
	fc.Advance(DesktopTimeout - time.Millisecond)
	select {
	case r := <-done:
		t.Fatalf("the test ended before the bound: %+v", r)
	default:
	}
	fc.Advance(time.Millisecond)
	results := wait.Receive(t, "the test to end", waitLong, done, func([]Result) bool { return true })
	err = results[0].Err
	if err == nil || err.Error() != "no answer after 10s" || !errors.Is(err, context.DeadlineExceeded) || results[0].Took != DesktopTimeout {
		t.Errorf("result = %+v", results[0])
	}
}
