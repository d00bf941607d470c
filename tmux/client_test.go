package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// TestClient_OutputInOrder runs a program that prints 300 numbered lines
// with a backslash, UTF-8 and escape sequences, and checks that the
// subscriber gets exactly those bytes, in order.
func TestClient_OutputInOrder(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("order", programArgv(t, "print")...)
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "waiting") }, "the program to start", 5*time.Second)
	srv := Server{Socket: ts.Socket()}

	var got collector
	client := NewClient(srv, "order", ClientOptions{})
	unsubscribe := client.Subscribe(pane, got.add)
	defer unsubscribe()
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	waitConnected(t, client, 5*time.Second)

	ts.Tmux("send-keys", "-t", pane, "Enter")
	got.waitFor(t, "PAYLOAD-DONE", 10*time.Second)
	// The pane's terminal turns each \n into \r\n (onlcr).
	want := strings.ReplaceAll(printPayload(), "\n", "\r\n")
	if !bytes.Contains(got.bytes(), []byte(want)) {
		t.Errorf("output does not contain the payload intact; got %d bytes:\n%q", len(got.bytes()), got.bytes())
	}
	if client.Mode() != ModeControl {
		t.Errorf("Mode() = %q, want %q", client.Mode(), ModeControl)
	}
}

func TestClient_Unsubscribe(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("unsub", "sh", "-c", `while read l; do echo "got $l"; done`)
	srv := Server{Socket: ts.Socket()}
	var kept, dropped collector
	client := NewClient(srv, "unsub", ClientOptions{})
	client.Subscribe(pane, kept.add)
	unsubscribe := client.Subscribe(pane, dropped.add)
	unsubscribe()
	unsubscribe() // twice is harmless
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	waitConnected(t, client, 5*time.Second)
	ts.Tmux("send-keys", "-t", pane, "-l", "hello")
	ts.Tmux("send-keys", "-t", pane, "Enter")
	kept.waitFor(t, "got hello", 5*time.Second)
	if n := len(dropped.bytes()); n != 0 {
		t.Errorf("unsubscribed function got %d bytes", n)
	}
}

// TestClient_ReconnectsAfterKill kills the tmux control client process and
// checks that the client reconnects after its backoff (on a fake clock)
// and that output flows again.
func TestClient_ReconnectsAfterKill(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("recon", "sh", "-c", `while read l; do echo "got $l"; done`)
	srv := Server{Socket: ts.Socket()}
	clock := clockwork.NewFakeClock()
	var logs logBuffer
	var got collector
	client := NewClient(srv, "recon", ClientOptions{Clock: clock, Logger: logs.logger()})
	client.Subscribe(pane, got.add)
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	waitConnected(t, client, 5*time.Second)
	first := waitControlClient(t, ts, 5*time.Second, 0)

	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("no backoff timer after the kill: %v; log:\n%s", err, logs.String())
	}
	if client.Mode() != ModeControl {
		t.Errorf("Mode() while reconnecting = %q, want %q", client.Mode(), ModeControl)
	}
	clock.Advance(DefaultBackoffMin)
	waitConnected(t, client, 5*time.Second)
	waitControlClient(t, ts, 5*time.Second, first)
	ts.Tmux("send-keys", "-t", pane, "-l", "after")
	ts.Tmux("send-keys", "-t", pane, "Enter")
	got.waitFor(t, "got after", 5*time.Second)
	if !strings.Contains(logs.String(), "tmux control client ended") {
		t.Errorf("log lacks the reconnect line:\n%s", logs.String())
	}
}

// TestClient_FlowControl blocks the subscriber while a program floods its
// pane. Whether tmux pauses the pane then depends on timing (it stops
// reading a pane whose clients are behind); either way the client must
// stay responsive and see output printed after the flood.
func TestClient_FlowControl(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("flood", programArgv(t, "flood")...)
	srv := Server{Socket: ts.Socket()}

	var pauses atomic.Int32
	var got collector
	release := make(chan struct{})
	var once sync.Once
	client := NewClient(srv, "flood", ClientOptions{
		PauseAfter: time.Second,
		Notify: func(ev Event) {
			if ev.Kind == EventPause {
				pauses.Add(1)
			}
		},
	})
	client.Subscribe(pane, func(data []byte, at time.Time) {
		once.Do(func() { <-release })
		got.add(data, at)
	})
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	waitConnected(t, client, 5*time.Second)

	ts.Tmux("send-keys", "-t", pane, "Enter")
	// tmux pauses a pane by the age of the output it holds, in real time:
	// hold the reader past the 1s pause-after while the flood goes on.
	time.Sleep(1500 * time.Millisecond)
	close(release)

	out, err := client.Run(context.Background(), "display-message", "-p", "still #{session_name}")
	if err != nil || out != "still flood\n" {
		t.Fatalf("Run during the flood = %q, %v", out, err)
	}
	got.waitQuiet(t, 300*time.Millisecond, 20*time.Second)
	ts.Tmux("send-keys", "-t", pane, "Enter")
	got.waitFor(t, "FLOOD-DONE", 10*time.Second)
	t.Logf("%d bytes, %d pauses", len(got.bytes()), pauses.Load())
}

// TestClient_PauseIsContinued pauses a pane for the client the way tmux
// does when the client falls behind, and checks that the client redraws
// the pane for its subscribers and continues it.
func TestClient_PauseIsContinued(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("pause", "sh", "-c", `echo before-pause; while read l; do echo "got $l"; done`)
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "before-pause") }, "the shell", 5*time.Second)
	srv := Server{Socket: ts.Socket()}
	events := make(chan Event, 100)
	var got collector
	client := NewClient(srv, "pause", ClientOptions{Notify: func(ev Event) { events <- ev }})
	client.Subscribe(pane, got.add)
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	waitConnected(t, client, 5*time.Second)

	// tmux 3.3 writes the %pause into this command's reply block.
	if _, err := client.Run(context.Background(), "refresh-client", "-A", pane+":pause"); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, events, EventPause, 5*time.Second)
	waitEvent(t, events, EventContinue, 5*time.Second)
	got.waitFor(t, "\x1b[H\x1b[2J", 5*time.Second) // the redraw
	got.waitFor(t, "before-pause", 5*time.Second)
	ts.Tmux("send-keys", "-t", pane, "-l", "resumed")
	ts.Tmux("send-keys", "-t", pane, "Enter")
	got.waitFor(t, "got resumed", 5*time.Second)
}

func waitEvent(t *testing.T, events <-chan Event, kind EventKind, timeout time.Duration) {
	t.Helper()
	wait.Receive(t, fmt.Sprintf("a %s event", kind), timeout, events, func(ev Event) bool { return ev.Kind == kind })
}

func TestClient_Run(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("run", "cat")
	srv := Server{Socket: ts.Socket()}
	client := startClient(t, srv, "run", ClientOptions{})
	ctx := context.Background()

	out, err := client.Run(ctx, "list-panes", "-t", pane, "-F", "#{pane_id}")
	if err != nil || out != pane+"\n" {
		t.Errorf("list-panes = %q, %v; want %q", out, err, pane+"\n")
	}
	_, err = client.Run(ctx, "send-keys", "-t", "%99", "x")
	var ce *CommandError
	if !errors.As(err, &ce) || !errors.Is(err, ErrNoPane) {
		t.Errorf("send-keys to %%99: err = %v, want a CommandError matching ErrNoPane", err)
	}
	// Both runners print the same.
	viaExec, err := srv.Run(ctx, "capture-pane", "-p", "-t", pane)
	if err != nil {
		t.Fatal(err)
	}
	viaControl, err := client.Run(ctx, "capture-pane", "-p", "-t", pane)
	if err != nil || viaControl != viaExec {
		t.Errorf("capture-pane over control = %q, %v; via exec %q", viaControl, err, viaExec)
	}
}

func TestClient_StartErrors(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	ts.NewSession("exists", "cat")
	srv := Server{Socket: ts.Socket()}

	c := NewClient(srv, "exist", ClientOptions{}) // a prefix is not the session
	if err := c.Start(context.Background()); err == nil {
		c.Close()
		t.Error("Start on a missing session succeeded")
	}

	c = NewClient(Server{Socket: ts.Socket() + "-none"}, "exists", ClientOptions{})
	if err := c.Start(context.Background()); !errors.Is(err, ErrNoServer) {
		t.Errorf("Start without a server: err = %v, want ErrNoServer", err)
	}

	c = startClient(t, srv, "exists", ClientOptions{})
	if err := c.Start(context.Background()); err == nil {
		t.Error("second Start succeeded")
	}
}

func TestClient_CloseWithoutStart(t *testing.T) {
	c := NewClient(Server{Socket: "/nonexistent"}, "x", ClientOptions{})
	if err := c.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}
