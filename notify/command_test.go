package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	path := filepath.Join(t.TempDir(), "notify.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCommand_EnvAndLastArgument(t *testing.T) {
	t.Setenv("TMUX", "/tmp/tmux-1000/default,1,0")
	t.Setenv("CODEMAN_KIND", "inherited")
	sh := script(t, `out=$1
shift
for a; do last=$a; done
{
	echo "args=$#"
	echo "event=$CODEMAN_EVENT"
	echo "pane=$CODEMAN_PANE"
	echo "target=$CODEMAN_TARGET"
	echo "kind=$CODEMAN_KIND"
	echo "reason=$CODEMAN_REASON"
	echo "session=$CODEMAN_SESSION"
	echo "window=$CODEMAN_WINDOW"
	echo "cwd=$CODEMAN_CWD"
	echo "tmux=${TMUX-unset}"
	echo "last=$last"
} >"$out"
`)
	out := filepath.Join(t.TempDir(), "out")
	c, err := NewCommand([]string{sh, out, "--app", "codeman"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Available(); err != nil {
		t.Errorf("Available = %v", err)
	}
	h := Hold{Pane: "tmux:/tmp/s:%3", Target: "work:1.0 (%3)", Kind: "permission", Reason: "Claude needs your permission\nto use Bash",
		Session: "work", Window: "editor", Cwd: "/home/dev/my project", Since: t0}
	m := raisedMessage(h, DefaultPolicy(), 1, at(45*time.Second))
	if err := c.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `args=3
event=raised
pane=tmux:/tmp/s:%3
target=work:1.0 (%3)
kind=permission
reason=Claude needs your permission to use Bash
session=work
window=editor
cwd=/home/dev/my project
tmux=unset
last=work:1.0 (%3) needs you (permission, 45s): Claude needs your permission to use Bash
`
	if string(got) != want {
		t.Errorf("the script saw:\n%s\nwant:\n%s", got, want)
	}
	if c.Name() != "command notify.sh" {
		t.Errorf("Name = %q", c.Name())
	}
}

func TestCommand_FailureQuotesOutput(t *testing.T) {
	sh := script(t, "echo 'cannot open display' >&2\nexit 3\n")
	c, _ := NewCommand([]string{sh}, 0)
	err := c.Send(context.Background(), TestMessage(t0))
	if err == nil || err.Error() != "run notify.sh: exit status 3: cannot open display" {
		t.Errorf("Send = %v", err)
	}
}

// A command that outlasts its timeout is killed with everything it
// started.
func TestCommand_TimeoutKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	sh := script(t, "sleep 60 &\necho $! >"+pidFile+"\nwait\n")
	c, _ := NewCommand([]string{sh}, 300*time.Millisecond)
	start := time.Now()
	err := c.Send(context.Background(), TestMessage(t0))
	if err == nil || !strings.Contains(err.Error(), "run notify.sh: killed after 300ms") || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Send = %v, want killed after the timeout", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Send took %s", took)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the command's background child to die", waitLong, func() bool { return dead(pid) })
}

// dead reports whether the process is gone or a zombie: an orphan killed
// with its group waits for whoever reaps orphans here.
func dead(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ") // the name may hold spaces; the state follows it
	return strings.HasPrefix(rest, "Z")
}

func TestCommand_Invalid(t *testing.T) {
	if _, err := NewCommand(nil, 0); err == nil {
		t.Error("NewCommand(nil) succeeded")
	}
	if _, err := NewCommand([]string{""}, 0); err == nil {
		t.Error(`NewCommand("") succeeded`)
	}
	c, _ := NewCommand([]string{"codeman-no-such-program"}, 0)
	if err := c.Available(); err == nil || !strings.Contains(err.Error(), "codeman-no-such-program") {
		t.Errorf("Available = %v, want it naming the program", err)
	}
	if err := c.Send(context.Background(), TestMessage(t0)); err == nil {
		t.Error("Send of a missing program succeeded")
	}
}

// A program that prints a credential in its error has it scrubbed.
func TestCommand_FailureScrubsCredentials(t *testing.T) {
	sh := script(t, "echo 'curl: (22) 401 for Authorization: Bearer tk_9f8e7d6c5b4a' >&2\nexit 22\n")
	c, _ := NewCommand([]string{sh}, 0)
	err := c.Send(context.Background(), TestMessage(t0))
	if err == nil || err.Error() != "run notify.sh: exit status 22: curl: (22) 401 for Authorization: Bearer …" {
		t.Errorf("Send = %v", err)
	}
}
