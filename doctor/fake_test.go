package doctor

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// The doctor's fakes: a machine where everything is in order, which each
// test then breaks in one place.

const (
	fakeUID     = 1000
	fakeBinary  = "/usr/local/bin/codeman"
	fakeVersion = "v1.2.0"
	fakeTmuxA   = "tmux:/tmp/tmux-1000/default:%3"
	fakeScreenA = "screen:4242.work:1"
)

// fakeInfo is a file of the fake machine.
type fakeInfo struct {
	name string
	mode fs.FileMode
	uid  int
}

func (f fakeInfo) Name() string       { return f.name }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fakeInfo) Sys() any           { return &syscall.Stat_t{Uid: uint32(f.uid)} }

// fakeFS maps paths to files; any other path does not exist.
type fakeFS map[string]fakeInfo

func (f fakeFS) stat(path string) (fs.FileInfo, error) {
	if info, ok := f[path]; ok {
		return info, nil
	}
	return nil, &fs.PathError{Op: "lstat", Path: path, Err: fs.ErrNotExist}
}

func privateDir(path string) fakeInfo {
	return fakeInfo{name: path, mode: fs.ModeDir | 0o700, uid: fakeUID}
}

// fakeScreen answers screen -v.
type fakeScreen string

func (s fakeScreen) Run(context.Context, ...string) (string, error) { return string(s), nil }

// fakeDaemon answers with a list of healths, the last one repeated.
type fakeDaemon struct {
	healths  []api.Health
	asked    int
	panes    []api.PaneStatus
	panesErr error
}

func (f *fakeDaemon) Health(context.Context) (api.Health, error) {
	h := f.healths[min(f.asked, len(f.healths)-1)]
	f.asked++
	return h, nil
}

func (f *fakeDaemon) Panes(context.Context) ([]api.PaneStatus, error) { return f.panes, f.panesErr }

// fakeMachine is what a fake doctor looks at; each field can be changed
// before newFakeDoctor.
type fakeMachine struct {
	programs map[string]string // program -> what it prints for its version; absent: not on PATH
	servers  map[string]string // tmux socket -> server version
	unread   map[string]error  // tmux socket -> why its panes cannot be read
	screen   string
	fs       fakeFS
	pathsErr error
	// hooks are what each agent's installer finds of its hooks, by agent.
	hooks   map[string][]hooks.Finding
	config  *config.File
	confErr error
	checker error
	daemon  *fakeDaemon // nil: none runs
	enabled []string    // panes enabled when none runs
	clock   *clockwork.FakeClock
}

func healthyMachine() *fakeMachine {
	file := config.Default()
	file.Path = "/home/u/.config/codeman/config.toml"
	return &fakeMachine{
		programs: map[string]string{"tmux": "tmux 3.3a\n", "screen": "", "claude": "2.1.332 (Claude Code)\n", "codex": "codex-cli 0.171.0\n", "copilot": "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n", "opencode": "1.18.33\n"},
		servers:  map[string]string{"/tmp/tmux-1000/default": "3.3a"},
		screen:   "Screen version 4.09.00 (GNU) 30-Jan-22\n",
		fs: fakeFS{
			"/run/user/1000/codeman":       privateDir("codeman"),
			"/run/user/1000/codeman/spool": privateDir("spool"),
			"/tmp/codeman-1000":            privateDir("codeman-1000"),
			"/tmp/codeman-1000/claims":     privateDir("claims"),
			// The screen lock dir is made on first use.
			"/home/u/.local/state/codeman":        {name: "codeman", mode: fs.ModeDir | 0o755, uid: fakeUID},
			"/home/u/.config/codeman/config.toml": {name: "config.toml", mode: 0o644, uid: fakeUID},
		},
		hooks: map[string][]hooks.Finding{
			"claude":   {{Name: "hooks", Level: hooks.LevelOK, Message: "installed in /home/u/.claude/settings.json, running this binary"}},
			"codex":    {{Name: "hooks (codex)", Level: hooks.LevelOK, Message: "installed in /home/u/.codex/hooks.json and trusted in /home/u/.codex/config.toml"}},
			"copilot":  {{Name: "hooks (copilot)", Level: hooks.LevelOK, Message: "installed in /home/u/.copilot/hooks/codeman.json"}},
			"opencode": {{Name: "hooks (opencode)", Level: hooks.LevelOK, Message: "installed in /home/u/.config/opencode/plugins/codeman.js"}},
		},
		config: file,
		daemon: &fakeDaemon{
			healths: []api.Health{{PID: 77, Version: fakeVersion, Socket: "/run/user/1000/codeman/daemon.sock", Panes: 1, Controllers: 1}},
			panes:   []api.PaneStatus{{Pane: fakeTmuxA, Target: "work:1.0 (%3)", Mode: "control", Status: respawn.Status{State: "watching"}}},
		},
		clock: clockwork.NewFakeClock(),
	}
}

func newFakeDoctor(m *fakeMachine) *Doctor {
	env := map[string]string{"HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"}
	return &Doctor{
		Binary:  fakeBinary,
		Version: fakeVersion,
		Env:     func(k string) string { return env[k] },
		LookPath: func(file string) (string, error) {
			if _, ok := m.programs[file]; ok {
				return "/usr/bin/" + file, nil
			}
			return "", fmt.Errorf("exec: %q: executable file not found in $PATH", file)
		},
		Output: func(ctx context.Context, name string, args ...string) (string, error) {
			out, ok := m.programs[strings.TrimPrefix(name, "/usr/bin/")]
			if !ok {
				return "", fmt.Errorf("run %s: no such file", name)
			}
			if out == "hang" {
				<-ctx.Done()
				return "", ctx.Err()
			}
			return out, nil
		},
		Screen: fakeScreen(m.screen),
		TmuxServerVersion: func(_ context.Context, srv tmux.Server) (string, error) {
			if v, ok := m.servers[srv.Socket]; ok {
				return v, nil
			}
			return "", fmt.Errorf("read tmux version: no server running on %s", srv.Socket)
		},
		TmuxPanes: func(_ context.Context, srv tmux.Server) ([]tmux.ListedPane, error) {
			return nil, m.unread[srv.Socket]
		},
		Paths: func() (api.Paths, error) {
			return api.Paths{
				Runtime: "/run/user/1000/codeman", Spool: "/run/user/1000/codeman/spool", Claims: "/tmp/codeman-1000/claims",
				State: "/home/u/.local/state/codeman", Log: "/home/u/.local/state/codeman/daemon.log",
			}, m.pathsErr
		},
		Lstat:   m.fs.stat,
		Stat:    m.fs.stat,
		Euid:    fakeUID,
		Hooks:   func(a agents.Info) []hooks.Finding { return m.hooks[a.Name] },
		Config:  func() (*config.File, error) { return m.config, m.confErr },
		Checker: func(string) error { return m.checker },
		Connect: func(context.Context, api.Paths) (Daemon, error) {
			if m.daemon == nil {
				return nil, fmt.Errorf("%w (dial unix: no such file)", api.ErrNotRunning)
			}
			return m.daemon, nil
		},
		Enabled:          func(context.Context, api.Paths) []string { return m.enabled },
		Clock:            m.clock,
		ProgramTimeout:   time.Second,
		ControllerSettle: 2 * time.Second,
	}
}

// runFake runs the doctor on the machine, failing the test if it waits.
func runFake(t *testing.T, m *fakeMachine) Report {
	t.Helper()
	return newFakeDoctor(m).Run(context.Background())
}

// check returns the report's check of that name.
func check(t *testing.T, rep Report, name string) Check {
	t.Helper()
	for _, c := range rep.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q in %s", name, dumpReport(rep))
	return Check{}
}

// wantCheck fails unless the check has the verdict and its message and
// fix contain every want.
func wantCheck(t *testing.T, rep Report, name string, verdict Verdict, want ...string) {
	t.Helper()
	c := check(t, rep, name)
	if c.Verdict != verdict {
		t.Errorf("%s: verdict %s, want %s: %+v", name, c.Verdict, verdict, c)
	}
	for _, w := range want {
		if !strings.Contains(c.Message+" | "+c.Fix, w) {
			t.Errorf("%s: %q | %q lacks %q", name, c.Message, c.Fix, w)
		}
	}
	if c.Verdict != VerdictOK && c.Verdict != VerdictNote && c.Fix == "" {
		t.Errorf("%s: %s without a fix: %+v", name, c.Verdict, c)
	}
}

func dumpReport(rep Report) string {
	var b strings.Builder
	for _, c := range rep.Checks {
		fmt.Fprintf(&b, "\n  %s %s: %s | %s", c.Verdict, c.Name, c.Message, c.Fix)
	}
	return b.String()
}
