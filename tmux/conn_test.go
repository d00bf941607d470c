package tmux

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestConn_SendRefusesLineBreaks(t *testing.T) {
	c := &conn{} // no process: the check comes before any write
	for _, line := range []string{"", "\n", "list-panes\n", "a\rb"} {
		if err := c.send(line, pendingCommand{}); err == nil {
			t.Errorf("send(%q) succeeded", line)
		}
	}
}

// A reply tmux holds back is fetched by a command written after it: the
// stand-in for tmux here answers each command only when the next arrives.
func TestConn_LateReplyIsNudged(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "tmux")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(programEnv, "stall")

	c, err := startConn(Server{Socket: filepath.Join(bin, "socket")}, "work", 0, DefaultReadPace, func(*conn, Event) {})
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.waitReady(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := c.command(ctx, "display-message -p first", false)
	if err != nil || len(r.Lines) != 1 || r.Lines[0] != "first" {
		t.Fatalf("reply %+v, %v; want the line first", r, err)
	}
	r, err = c.command(ctx, "display-message -p second", false)
	if err != nil || len(r.Lines) != 1 || r.Lines[0] != "second" {
		t.Fatalf("reply %+v, %v; want the line second, after the nudge's reply was dropped", r, err)
	}
}
