package tmux

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// A notice reaches the status line of a person's attached client exactly
// as written (no format expansion), with a bell when asked.
func TestNotice_ReachesAttachedClients(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("work", "sh", "-c", "sleep 600")
	srv := Server{Socket: ts.Socket()}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	if n, err := Notice(ctx, srv, pane, "nobody is looking", false); err != nil || n != 0 {
		t.Fatalf("Notice without clients = %d, %v; want 0, nil", n, err)
	}
	client := ts.AttachClient("work")
	msg := "codeman: 50% of %H #[bold] rm -rf #{pane_id} ##"
	// A bidi override would show the command reordered; an OSC would
	// retitle the person's terminal. Both are shown as escapes.
	n, err := Notice(ctx, srv, pane, msg+"\nnext \u202e\x1b]0;x\a", true)
	if strings.HasPrefix(ts.Version(), "3.2") {
		// No message on one client's status line there; the bell rings.
		if !errors.Is(err, ErrNoticeUnsupported) || n != 0 {
			t.Fatalf("Notice on tmux %s = %d, %v; want 0, ErrNoticeUnsupported", ts.Version(), n, err)
		}
		wait.For(t, "a bell on the client's terminal", 10*time.Second, func() bool {
			return strings.Contains(client.Output(), "\a")
		})
		return
	}
	if err != nil || n != 1 {
		t.Fatalf("Notice = %d, %v; want 1 client told", n, err)
	}
	wait.For(t, "the notice on the client's status line", 10*time.Second, func() bool {
		return strings.Contains(client.Output(), `codeman: 50% of %H #[bold] rm -rf #{pane_id} ## next \u202e\x1b]0;x\x07`)
	})
	wait.For(t, "a bell on the client's terminal", 10*time.Second, func() bool {
		return strings.Contains(client.Output(), "\a")
	})
}

func TestSetWindowNeeds(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("work", "sh", "-c", "sleep 600")
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	if err := SetWindowNeeds(ctx, srv, pane, "question"); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(ts.Tmux("display-message", "-p", "-t", pane, "#{"+OptionNeeds+"}")); got != "question" {
		t.Fatalf("%s = %q, want question", OptionNeeds, got)
	}
	if err := SetWindowNeeds(ctx, srv, pane, ""); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(ts.Tmux("display-message", "-p", "-t", pane, "#{"+OptionNeeds+"}")); got != "" {
		t.Fatalf("%s = %q after clearing, want unset", OptionNeeds, got)
	}
	if err := SetWindowNeeds(ctx, srv, "%999", "x"); err == nil {
		t.Fatal("SetWindowNeeds on a pane that does not exist succeeded")
	}
}

// A notice quoting what an agent wrote cannot make tmux run a command:
// #(...) in a format runs a shell, and the text is shown instead.
func TestNotice_RunsNoCommand(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("work", "sh", "-c", "sleep 600")
	client := ts.AttachClient("work")
	marker := filepath.Join(t.TempDir(), "ran")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	text := "#(touch " + marker + ")"
	_, err := Notice(ctx, Server{Socket: ts.Socket()}, pane, text, false)
	if strings.HasPrefix(ts.Version(), "3.2") && errors.Is(err, ErrNoticeUnsupported) {
		t.Skipf("tmux %s shows no notice on a client's status line", ts.Version())
	}
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the notice on the client's status line", 10*time.Second, func() bool {
		return strings.Contains(client.Output(), text)
	})
	// tmux runs #() jobs in the background: give one time to show.
	time.Sleep(500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the notice ran %q", text)
	}
}
