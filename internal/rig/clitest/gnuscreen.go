package clitest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/childenv"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// screenConf is the screenrc of a Launch.Screen session.
const screenConf = `# clitest: the GNU screen session a CLI under test runs in.
startup_message off
defutf8 on
altscreen on
# screen's own 256-colour terminal inside the window.
term screen-256color
# The window's title (OSC 0 or 2, which screen keeps as the window's
# hardstatus) and screen's messages go to the tmux pane's title, the
# hardstatus line of tmux-256color, not over the window's last row.
hardstatus on
hardstatus string "%h"
msgwait 1
`

// screenTimeout bounds a screen command and the wait for a new session to
// be listed.
const screenTimeout = 10 * time.Second

// screenSession is the GNU screen session of a Launch.Screen pane.
type screenSession struct {
	p     *Pane
	short string // the name it is started with: the session dir's, unique
	name  string // PID.short, as screen -ls lists it, once found
	conf  string
	pid   string // the file the window's program writes its pid to
}

// newScreenSession writes the session's screenrc. It skips the test when
// screen is not installed.
func (p *Pane) newScreenSession(l Launch) *screenSession {
	p.t.Helper()
	if _, err := exec.LookPath("screen"); err != nil {
		p.t.Skipf("%s: GNU screen not found in PATH", p.cfg.Pkg)
	}
	if l.Record {
		p.t.Fatalf("%s: Launch.Record does not go with Launch.Screen", p.cfg.Pkg)
	}
	s := &screenSession{p: p, short: filepath.Base(p.root),
		conf: filepath.Join(p.root, "screenrc"), pid: filepath.Join(p.root, "cli.pid")}
	if err := os.WriteFile(s.conf, []byte(screenConf), 0o600); err != nil {
		p.t.Fatalf("%s: write screenrc: %v", p.cfg.Pkg, err)
	}
	return s
}

// command is the pane's command that runs env's words (KEY=VALUE pairs,
// then the CLI's argv) in the session's window: screen, a shell that
// writes its pid and execs env without the pane's TMUX and TMUX_PANE (a
// hook that sees them names the tmux pane, not the window), then the CLI.
func (s *screenSession) command(env []string) []string {
	return append([]string{"screen", "-U", "-S", s.short, "-c", s.conf,
		"sh", "-c", `echo $$ >"$0" && exec "$@"`, s.pid,
		"env", "-u", "TMUX", "-u", "TMUX_PANE"}, env...)
}

// find waits until screen -ls lists the session and learns its full name.
func (s *screenSession) find() {
	s.p.t.Helper()
	listed := regexp.MustCompile(`(?m)^\s+(\d+\.` + regexp.QuoteMeta(s.short) + `)\s`)
	var out string
	// A new session has no event to wait on.
	err := wait.Until("screen session "+s.short+" to be listed", screenTimeout, func() bool {
		out = s.run("-ls", s.short)
		if m := listed.FindStringSubmatch(out); m != nil {
			s.name = m[1]
		}
		return s.name != ""
	})
	if err != nil {
		s.p.t.Fatalf("%s: %v; screen -ls printed:\n%s\n%s", s.p.cfg.Pkg, err, out, s.p.dump(s.p.captureOrError()))
	}
}

// programPID returns the pid of the window's program, the CLI.
func (s *screenSession) programPID() int {
	s.p.t.Helper()
	data, err := os.ReadFile(s.pid)
	pid, convErr := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || convErr != nil {
		s.p.t.Fatalf("%s: the pid of the window's program: %v %v", s.p.cfg.Pkg, err, convErr)
	}
	return pid
}

// address is the window's canonical address.
func (s *screenSession) address() string { return "screen:" + s.name + ":0" }

// quit ends the session, and with it the CLI.
func (s *screenSession) quit() {
	name := s.name
	if name == "" { // not listed yet: the short name is unique
		name = s.short
	}
	s.run("-S", name, "-X", "quit")
}

// run runs screen with args and returns what it printed: its exit status
// says little (-ls exits 1 when it lists a session).
func (s *screenSession) run(args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), screenTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "screen", args...)
	// STY and WINDOW would make screen act on the caller's own session.
	cmd.Env = childenv.Without(os.Environ(), "STY", "WINDOW")
	out, _ := cmd.CombinedOutput()
	return string(out)
}
