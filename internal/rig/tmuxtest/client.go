package tmuxtest

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// AttachedClient is a real tmux client attached to a session through a
// pseudo-terminal (script(1)), as a person's terminal would be. Everything
// tmux draws on it, status line and bells included, is kept in a file.
type AttachedClient struct {
	s          *Server
	name       string
	typescript string
	keys       io.WriteCloser
	cancel     context.CancelFunc
	done       chan struct{}
}

// AttachClient attaches a client to session and waits until tmux lists
// it. It skips the test when script(1) is missing. The client detaches
// when the test ends.
func (s *Server) AttachClient(session string) *AttachedClient {
	s.t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		s.t.Skip("script is not installed: attaching a tmux client needs script(1) from util-linux")
	}
	before := s.clients("")
	c := &AttachedClient{s: s, typescript: filepath.Join(s.t.TempDir(), "typescript"), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	attach := "exec tmux -u -L " + s.name + " -f " + s.config + " attach -t " + session
	cmd := exec.CommandContext(ctx, script, "-q", "-f", "-c", attach, c.typescript)
	cmd.Env = append(s.Env(), "TERM=xterm-256color")
	// script reads its stdin for the client's keys (Keys); the pipe keeps
	// it attached until the test ends.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		s.t.Fatalf("tmuxtest: attach a client: %v", err)
	}
	c.keys = stdin
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("tmuxtest: attach a client: %v", err)
	}
	go func() {
		defer close(c.done)
		_ = cmd.Wait()
		_ = stdin.Close()
	}()
	s.t.Cleanup(c.Detach)
	wait.For(s.t, "a client attached to session "+session, 10*time.Second, func() bool {
		for _, n := range s.clients(session) {
			if !slices.Contains(before, n) {
				c.name = n
			}
		}
		return c.name != ""
	})
	return c
}

// Name returns the client's name, as display-message -c and
// switch-client -c want it.
func (c *AttachedClient) Name() string { return c.name }

// Keys types into the client, as a person at its terminal would.
func (c *AttachedClient) Keys() io.Writer { return c.keys }

// Output returns all the client's terminal received so far.
func (c *AttachedClient) Output() string {
	b, _ := os.ReadFile(c.typescript)
	return string(b)
}

// Detach ends the client.
func (c *AttachedClient) Detach() {
	c.cancel()
	<-c.done
}

// clients lists the names of the non-control clients of session, or of
// every session for "".
func (s *Server) clients(session string) []string {
	args := []string{"list-clients", "-F", "#{client_name}\t#{client_control_mode}"}
	if session != "" {
		args = append(args, "-t", session)
	}
	out, err := s.Run(args...)
	if err != nil {
		return nil
	}
	var names []string
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		name, control, _ := strings.Cut(line, "\t")
		if name != "" && control != "1" {
			names = append(names, name)
		}
	}
	return names
}
