package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/respawn"
)

func claudeAgent(t *testing.T, program string, recognized bool) paneAgent {
	t.Helper()
	info, err := agents.Lookup("claude")
	if err != nil {
		t.Fatal(err)
	}
	reader, err := info.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return paneAgent{info: info, reader: reader, recognized: recognized, program: program}
}

// Keys go to a pane only while its foreground process group runs the
// agent: its CLI's name, the runtime it was recognized under, or a
// wrapper script's group it is in; never a shell, a pager or an editor.
func TestTypesInto(t *testing.T) {
	for _, tc := range []struct {
		name     string
		program  string // learned when attached
		programs []string
		refused  string // "" when keys may go
	}{
		{"claude", "", []string{"claude"}, ""},
		{"unknown", "", nil, ""},
		{"shell", "", []string{"bash"}, "the pane runs bash, a shell"},
		{"login_shell", "", []string{"-zsh"}, "the pane runs zsh, a shell"},
		{"cat_of_a_capture", "", []string{"cat"}, "the pane runs cat, not Claude Code"},
		{"pager", "", []string{"less"}, "the pane runs less, not Claude Code"},
		{"editor", "", []string{"vim"}, "the pane runs vim, not Claude Code"},
		{"wrapper_script", "", []string{"bash", "claude"}, ""},
		{"shell_and_its_pipeline", "", []string{"bash", "git", "less"}, "the pane runs bash, git, less, not Claude Code"},
		{"npm_runtime", "node", []string{"node"}, ""},
		{"runtime_not_learned", "", []string{"node"}, "the pane runs node, not Claude Code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := claudeAgent(t, tc.program, true).typesInto(tc.programs)
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused) || !errorsIsNotAgent(err)):
				t.Fatalf("error %v, want ErrNotAgent saying %q", err, tc.refused)
			}
		})
	}
}

func errorsIsNotAgent(err error) bool {
	return strings.Contains(err.Error(), respawn.ErrNotAgent.Error())
}

// The agent back after a shell is a new session; a runtime is read for an
// agent's screen; a pager or an editor never is.
func TestRelaunch(t *testing.T) {
	a := claudeAgent(t, "", true)
	if why, ok := a.relaunched("bash", "claude"); !ok || !strings.Contains(why, "claude again after bash") {
		t.Errorf("claude after bash: %q, %t", why, ok)
	}
	for _, c := range [][2]string{{"claude", "claude"}, {"", "claude"}, {"claude", "bash"}, {"bash", "less"}} {
		if why, ok := a.relaunched(c[0], c[1]); ok {
			t.Errorf("relaunched(%q, %q) = %q", c[0], c[1], why)
		}
	}
	for cmd, want := range map[string]bool{"node": true, "bun": true, "less": false, "vim": false, "bash": false, "claude": false} {
		if got := a.mayBeRelaunched(cmd); got != want {
			t.Errorf("mayBeRelaunched(%q) = %t, want %t", cmd, got, want)
		}
	}
	if claudeAgent(t, "", false).mayBeRelaunched("node") {
		t.Error("an agent set in the config is not recognized again")
	}
}

// A pane whose shell shows a capture of Claude's screen (cat of a saved
// screen) is recognized as Claude by its screen, but codeman types none
// of the cycle into the shell: each attempt is refused before a key goes.
func TestDaemon_NothingTypedIntoShell(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	capture, err := filepath.Abs(filepath.Join("..", "agents", "claude", "testdata", "screens", "06-reply-done.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pane := r.tmux.NewSession("shell", "env", "PS1=$ ", "HISTFILE=/dev/null", "bash", "--norc", "--noprofile", "-i")
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "$") }, "the shell's prompt", 10*time.Second)
	r.tmux.Tmux("send-keys", "-t", pane, "-l", "clear; cat "+capture)
	r.tmux.Tmux("send-keys", "-t", pane, "Enter")
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "❯") }, "the capture", 10*time.Second)
	addr := "tmux:" + r.tmux.Socket() + ":" + pane
	r.attach(addr)
	r.waitFor("a cycle refused", 60*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 50)
		if err != nil {
			return false
		}
		for _, d := range st.Status.Decisions {
			if strings.Contains(d.Reason, "the pane runs bash, a shell; nothing is typed into a shell") {
				return true
			}
		}
		return false
	})
	screen := r.tmux.Capture(pane)
	for _, typed := range []string{"/clear", "write a brief", "command not found", "No such file"} {
		if strings.Contains(screen, typed) {
			t.Fatalf("%q reached the shell:\n%s", typed, screen)
		}
	}
	st, _ := r.client.Pane(context.Background(), addr, 0)
	if n := st.Status.NeedsYou; n != nil && n.Kind == respawn.NeedSendFailed {
		t.Fatalf("need %+v for a pane that runs its shell", n)
	}
}
