package tmux

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func TestServer_PaneOptions(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("opt", "cat")
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()

	if v, ok, err := srv.PaneOption(ctx, pane, OptionEnabled); err != nil || ok || v != "" {
		t.Errorf("unset option = %q, %v, %v; want not set", v, ok, err)
	}
	for _, value := range []string{"overnight", "", "-dash", "ends;", "é ✻"} {
		if err := srv.SetPaneOption(ctx, pane, OptionEnabled, value); err != nil {
			t.Fatalf("set %q: %v", value, err)
		}
		if v, ok, err := srv.PaneOption(ctx, pane, OptionEnabled); err != nil || !ok || v != value {
			t.Errorf("after set %q: got %q, %v, %v", value, v, ok, err)
		}
	}
	if err := srv.UnsetPaneOption(ctx, pane, OptionEnabled); err != nil {
		t.Fatal(err)
	}
	if err := srv.UnsetPaneOption(ctx, pane, OptionEnabled); err != nil {
		t.Errorf("unset twice: %v", err)
	}
	if _, ok, err := srv.PaneOption(ctx, pane, OptionEnabled); err != nil || ok {
		t.Errorf("after unset: set=%v, %v", ok, err)
	}
	// Another pane does not see it.
	ts.NewSession("opt2", "cat")
	if err := srv.SetPaneOption(ctx, pane, OptionState, "watching"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := srv.PaneOption(ctx, "%1", OptionState); ok {
		t.Error("option leaked to another pane")
	}
}

func TestServer_PaneOptionErrors(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("opterr", "cat")
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	if _, _, err := srv.PaneOption(ctx, "%99", OptionEnabled); !errors.Is(err, ErrNoPane) {
		t.Errorf("PaneOption on %%99 = %v, want ErrNoPane", err)
	}
	if err := srv.SetPaneOption(ctx, "%99", OptionEnabled, "on"); !errors.Is(err, ErrNoPane) {
		t.Errorf("SetPaneOption on %%99 = %v, want ErrNoPane", err)
	}
	if err := srv.SetPaneOption(ctx, "work:0", OptionEnabled, "on"); err == nil || !strings.Contains(err.Error(), "not a pane id") {
		t.Errorf("SetPaneOption on a non-id target = %v", err)
	}
	if err := srv.SetPaneOption(ctx, pane, "status", "off"); err == nil || !strings.Contains(err.Error(), "start with @") {
		t.Errorf("SetPaneOption on a tmux option = %v", err)
	}
}

func TestServer_ListPanes(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	if panes, err := srv.ListPanes(ctx); err != nil || len(panes) != 0 {
		t.Fatalf("ListPanes on an empty server = %v, %v", panes, err)
	}
	a := ts.NewSession("a", "cat")
	b := ts.NewSession("b b", "cat")
	ts.Tmux("set-option", "-p", "-t", a, OptionEnabled, "overnight")
	ts.Tmux("set-option", "-p", "-t", a, OptionState, "watching: idle in 3s")
	panes, err := srv.ListPanes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(panes) != 2 {
		t.Fatalf("ListPanes = %+v, want 2 panes", panes)
	}
	got := map[string]ListedPane{}
	for _, p := range panes {
		got[p.ID] = p
	}
	if p := got[a]; p.Enabled != "overnight" || p.State != "watching: idle in 3s" || p.Session != "a" || p.Command != "cat" {
		t.Errorf("pane a = %+v", p)
	}
	if p := got[b]; p.Enabled != "" || p.State != "" || p.Session != "b b" || p.Address() != "tmux:"+ts.Socket()+":"+b {
		t.Errorf("pane b = %+v", p)
	}
}

func TestStateWriter(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("state", "cat")
	srv := Server{Socket: ts.Socket()}
	w := NewStateWriter(srv, pane)
	defer w.Close()

	// Set never waits for tmux; the newest value wins.
	for _, s := range []string{"watching", "confirming", "sending update", "waiting: usage limit"} {
		w.Set(s)
	}
	waitOption(t, srv, pane, "waiting: usage limit", true)
	w.Set("")
	waitOption(t, srv, pane, "", false)
}

func TestStateWriter_LogsFailureOnce(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	ts.NewSession("state", "cat")
	var logs logBuffer
	w := NewStateWriter(Server{Socket: ts.Socket()}, "%99")
	w.Logger = logs.logger()
	for i := 0; i < 3; i++ {
		w.Set("x")
		wait.For(t, "the failed write", 5*time.Second, func() bool { return strings.Contains(logs.String(), "write pane state") })
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), "write pane state"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, logs.String())
	}
	w.Set("after close") // does nothing, does not panic
}

func waitOption(t *testing.T, srv Server, pane, want string, wantSet bool) {
	t.Helper()
	wait.For(t, "@codeman-state = "+want, 5*time.Second, func() bool {
		v, ok, err := srv.PaneOption(context.Background(), pane, OptionState)
		return err == nil && ok == wantSet && v == want
	})
}

// Of many swaps from unset at once, exactly one wins; a swap from the
// value now held moves it on; a wrong old value changes nothing.
func TestServer_SwapPaneOption(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("swap", "cat")
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	const n = 12
	won := make(chan string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			value := "owner-" + strconv.Itoa(i)
			ok, err := srv.SwapPaneOption(ctx, pane, "@owner", "", value)
			if err != nil {
				t.Errorf("swap %s: %v", value, err)
			}
			if ok {
				won <- value
			}
		}()
	}
	wg.Wait()
	close(won)
	var winners []string
	for w := range won {
		winners = append(winners, w)
	}
	if len(winners) != 1 {
		t.Fatalf("winners %q, want exactly one", winners)
	}
	if ok, err := srv.SwapPaneOption(ctx, pane, "@owner", "someone-else", "late"); err != nil || ok {
		t.Errorf("swap from a wrong old value = %t, %v", ok, err)
	}
	if ok, err := srv.SwapPaneOption(ctx, pane, "@owner", winners[0], "next"); err != nil || !ok {
		t.Errorf("swap from the value held = %t, %v", ok, err)
	}
	if _, err := srv.SwapPaneOption(ctx, pane, "@owner", "", "a b"); err == nil {
		t.Error("a value with a space was accepted")
	}
}

// Over a control connection, as a tmux process: of a swap racing a swap by
// a process, one wins; the option helpers and the state writer work alike.
func TestPaneOptionsWith_ControlConnection(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("swapc", "cat")
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	client := startClient(t, srv, "swapc", ClientOptions{})
	results := make(chan bool, 2)
	go func() {
		ok, err := SwapPaneOptionWith(ctx, client, pane, "@owner", "", "control")
		if err != nil {
			t.Errorf("swap over the control connection: %v", err)
		}
		results <- ok
	}()
	go func() {
		ok, err := srv.SwapPaneOption(ctx, pane, "@owner", "", "process")
		if err != nil {
			t.Errorf("swap by a process: %v", err)
		}
		results <- ok
	}()
	if a, b := <-results, <-results; a == b {
		t.Fatalf("swaps won: %v and %v, want exactly one", a, b)
	}
	// A swap from a value, and one from a value set to "": each reply
	// still goes to its own command.
	cur, _, _ := srv.PaneOption(ctx, pane, "@owner")
	if ok, err := SwapPaneOptionWith(ctx, client, pane, "@owner", cur, "next"); !ok || err != nil {
		t.Fatalf("swap %s -> next: %v, %v", cur, ok, err)
	}
	if err := srv.SetPaneOption(ctx, pane, "@empty", ""); err != nil {
		t.Fatal(err)
	}
	if ok, err := SwapPaneOptionWith(ctx, client, pane, "@empty", "", "mine"); !ok || err != nil {
		t.Fatalf("swap of an option set to \"\": %v, %v", ok, err)
	}
	if out, err := client.Run(ctx, "display-message", "-p", "in-order"); out != "in-order\n" || err != nil {
		t.Fatalf("a command after the swaps got %q, %v: replies out of order", out, err)
	}
	// if-shell runs as a process: over the connection its command's output
	// would come in a reply of its own.
	if out, err := client.Run(ctx, "if-shell", "-F", "1", "display-message -p ran"); out != "ran\n" || err != nil {
		t.Fatalf("if-shell through the client printed %q, %v", out, err)
	}
	if err := SetPaneOptionWith(ctx, client, pane, "@x", "-v"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := srv.PaneOption(ctx, pane, "@x"); v != "-v" || !ok || err != nil {
		t.Fatalf("@x = %q, %v, %v after SetPaneOptionWith", v, ok, err)
	}
	if err := UnsetPaneOptionWith(ctx, client, pane, "@x"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := srv.PaneOption(ctx, pane, "@x"); ok || err != nil {
		t.Fatalf("@x set (%v, %v) after UnsetPaneOptionWith", ok, err)
	}
	w := NewStateWriter(client, pane)
	defer w.Close()
	w.Set("watching")
	wait.For(t, "@codeman-state written over the control connection", 5*time.Second, func() bool {
		v, _, _ := srv.PaneOption(ctx, pane, OptionState)
		return v == "watching"
	})
}
