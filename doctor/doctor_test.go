package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

func TestDoctor_Healthy(t *testing.T) {
	rep := runFake(t, healthyMachine())
	if rep.Errors != 0 || rep.Warnings != 0 {
		t.Fatalf("%d errors, %d warnings on a healthy machine:%s", rep.Errors, rep.Warnings, dumpReport(rep))
	}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
		if c.Verdict != VerdictOK {
			t.Errorf("%s: %s on a healthy machine: %+v", c.Name, c.Verdict, c)
		}
	}
	want := []string{"tmux", "tmux server /tmp/tmux-1000/default", "screen", "claude", "hooks", "codex", "hooks (codex)", "copilot", "hooks (copilot)", "opencode", "hooks (opencode)",
		"runtime dir", "spool dir", "lock dir", "claims dir", "screen lock dir", "state dir",
		"config", "ai check", "daemon", "daemon version", "pane work:1.0 (%3)"}
	if !slices.Equal(names, want) {
		t.Errorf("checks %q, want %q", names, want)
	}
	wantCheck(t, rep, "claude", VerdictOK, "2.1.332", "tested")
	wantCheck(t, rep, "screen lock dir", VerdictOK, "/tmp/codeman-1000/screen-lock", "does not exist yet")
	wantCheck(t, rep, "pane work:1.0 (%3)", VerdictOK, "controlled, watching")
}

// A missing program is a note, or a warning for Claude Code, unless an
// enabled pane needs it.
func TestDoctor_MissingPrograms(t *testing.T) {
	m := healthyMachine()
	m.programs = map[string]string{}
	m.daemon.panes = nil
	m.daemon.healths[0].Panes, m.daemon.healths[0].Controllers = 0, 0
	rep := runFake(t, m)
	wantCheck(t, rep, "tmux", VerdictNote, "not found on PATH", "needed only to control tmux panes")
	wantCheck(t, rep, "screen", VerdictNote, "not found on PATH", "needed only to control screen windows")
	wantCheck(t, rep, "claude", VerdictWarn, "not found on PATH", "npm install -g @anthropic-ai/claude-code@2.1.332")
	if rep.Errors != 0 {
		t.Errorf("%d errors without panes:%s", rep.Errors, dumpReport(rep))
	}

	m.daemon.panes = []api.PaneStatus{{Pane: fakeTmuxA, Target: "work:1.0 (%3)"}, {Pane: fakeScreenA, Target: "screen 4242.work:1"}}
	m.daemon.healths[0].Panes, m.daemon.healths[0].Controllers = 2, 2
	rep = runFake(t, m)
	wantCheck(t, rep, "tmux", VerdictError, "an enabled pane is a tmux pane", "install tmux")
	wantCheck(t, rep, "screen", VerdictError, "an enabled pane is a screen window", "install GNU screen 4.1")
}

func TestDoctor_OldTmux(t *testing.T) {
	m := healthyMachine()
	m.programs["tmux"] = "tmux 3.1c\n"
	m.daemon.panes = nil
	m.daemon.healths[0].Panes, m.daemon.healths[0].Controllers = 0, 0
	rep := runFake(t, m)
	wantCheck(t, rep, "tmux", VerdictWarn, "3.1c is too old", "needed only")

	m = healthyMachine()
	m.programs["tmux"] = "tmux 3.1c\n"
	m.servers["/tmp/tmux-1000/default"] = "3.0"
	rep = runFake(t, m)
	wantCheck(t, rep, "tmux", VerdictError, "3.1c is too old", "an enabled pane")
	wantCheck(t, rep, "tmux server /tmp/tmux-1000/default", VerdictError, "3.0 is too old", "restart this server")
}

// doctor names what differs on each tmux release, and a server whose
// panes it cannot read is an error whatever its version.
func TestDoctor_TmuxReleases(t *testing.T) {
	const server = "tmux server /tmp/tmux-1000/default"
	for _, tc := range []struct {
		name, version string
		verdict       Verdict
		want          []string
	}{
		{"Tested", "3.3a", VerdictOK, []string{"runs tmux 3.3a"}},
		{"Escapes", "3.4", VerdictOK, []string{"runs tmux 3.4", "codeman reads it back"}},
		{"NoClientMessage", "3.2a", VerdictWarn, []string{"not shown on the status line", "bell", "tmux 3.3 or newer"}},
		{"Newer", "3.9", VerdictNote, []string{"newer than the newest release codeman is tested with (3.7c)"}},
		{"Master", "master", VerdictNote, []string{"development build", "3.2a to 3.7c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := healthyMachine()
			m.servers["/tmp/tmux-1000/default"] = tc.version
			wantCheck(t, runFake(t, m), server, tc.verdict, tc.want...)
		})
	}

	m := healthyMachine()
	m.servers["/tmp/tmux-1000/default"] = "3.4"
	m.unread = map[string]error{"/tmp/tmux-1000/default": fmt.Errorf(`list panes: read pane fields from "%%0\\0370": want 12 fields`)}
	wantCheck(t, runFake(t, m), server, VerdictError, "cannot read its panes", "want 12 fields", "3.2a, 3.3a")

	// The server doctor runs in is checked with no pane enabled on it.
	m = healthyMachine()
	m.daemon.panes = nil
	m.daemon.healths[0].Panes, m.daemon.healths[0].Controllers = 0, 0
	m.servers["/tmp/tmux-1000/work"] = "3.5a"
	m.unread = map[string]error{"/tmp/tmux-1000/work": fmt.Errorf("list panes: got 1 fields")}
	d := newFakeDoctor(m)
	env := d.Env
	d.Env = func(k string) string {
		if k == "TMUX" {
			return "/tmp/tmux-1000/work,123,0"
		}
		return env(k)
	}
	wantCheck(t, d.Run(context.Background()), "tmux server /tmp/tmux-1000/work", VerdictError, "cannot read its panes")
}

func TestDoctor_Claude(t *testing.T) {
	for _, tc := range []struct {
		name, output string
		verdict      Verdict
		want         []string
	}{
		{"Pinned", "2.1.332 (Claude Code)\n", VerdictOK, []string{"2.1.332", "a tested version"}},
		{"Previous", "2.1.328 (Claude Code)\n", VerdictOK, []string{"2.1.328", "a tested version"}},
		{"Newer", "2.1.340 (Claude Code)\n", VerdictWarn, []string{"2.1.340", "newer than the versions codeman is tested with (2.1.328, 2.1.332)", "screens may have changed", "@2.1.332"}},
		{"NewerMajor", "3.0.0 (Claude Code)\n", VerdictWarn, []string{"newer than"}},
		{"Older", "2.0.5 (Claude Code)\n", VerdictWarn, []string{"2.0.5", "not a version codeman is tested with", "update it"}},
		{"Untested", "2.1.330 (Claude Code)\n", VerdictWarn, []string{"not a version codeman is tested with"}},
		{"Garbage", "command not found\n", VerdictWarn, []string{"version unknown", "command not found"}},
		{"Hangs", "hang", VerdictWarn, []string{"version unknown", "no answer within 1ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := healthyMachine()
			m.programs["claude"] = tc.output
			d := newFakeDoctor(m)
			d.ProgramTimeout = time.Millisecond
			rep := d.Run(context.Background())
			wantCheck(t, rep, "claude", tc.verdict, tc.want...)
			if rep.Errors != 0 {
				t.Errorf("a Claude Code version is never an error:%s", dumpReport(rep))
			}
		})
	}
}

// Each agent's hooks installer judges its hooks; the doctor shows every
// finding as a check of its level, with the installer's words and fix.
func TestDoctor_Hooks(t *testing.T) {
	for _, tc := range []struct {
		level   hooks.Level
		verdict Verdict
	}{
		{hooks.LevelOK, VerdictOK}, {hooks.LevelNote, VerdictNote}, {hooks.LevelWarn, VerdictWarn}, {hooks.LevelError, VerdictError},
	} {
		t.Run(string(tc.verdict), func(t *testing.T) {
			m := healthyMachine()
			m.hooks["claude"] = []hooks.Finding{{Name: "hooks", Level: tc.level, Message: "the hooks in /home/u/.claude/settings.json say so", Fix: "codeman hooks install"}}
			m.hooks["codex"] = append(m.hooks["codex"], hooks.Finding{Name: "codex usage limits", Level: tc.level, Message: "a second finding", Fix: "set it"})
			rep := runFake(t, m)
			wantCheck(t, rep, "hooks", tc.verdict, "say so", "codeman hooks install")
			wantCheck(t, rep, "codex usage limits", tc.verdict, "a second finding", "set it")
		})
	}
}

func TestDoctor_DirPermissions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		breakIt  func(*fakeMachine)
		check    string
		verdict  Verdict
		want     []string
		pathsErr bool
	}{
		{"RuntimeOpen", func(m *fakeMachine) {
			m.fs["/run/user/1000/codeman"] = fakeInfo{mode: fs.ModeDir | 0o755, uid: fakeUID}
		}, "runtime dir", VerdictError, []string{"/run/user/1000/codeman has mode 0755", "chmod 700 /run/user/1000/codeman"}, false},
		{"SpoolNotOurs", func(m *fakeMachine) {
			m.fs["/run/user/1000/codeman/spool"] = fakeInfo{mode: fs.ModeDir | 0o700, uid: 0}
		}, "spool dir", VerdictError, []string{"belongs to uid 0, not to you (uid 1000)", "remove it"}, false},
		{"LockDirSymlink", func(m *fakeMachine) {
			m.fs["/tmp/codeman-1000"] = fakeInfo{mode: fs.ModeSymlink | 0o777, uid: fakeUID}
		}, "lock dir", VerdictError, []string{"is a symlink", "rm /tmp/codeman-1000"}, false},
		{"ClaimsMissing", func(m *fakeMachine) { delete(m.fs, "/tmp/codeman-1000/claims") },
			"claims dir", VerdictOK, []string{"does not exist yet"}, false},
		{"ScreenLocksOpen", func(m *fakeMachine) {
			m.fs["/tmp/codeman-1000/screen-lock"] = fakeInfo{mode: fs.ModeDir | 0o770, uid: fakeUID}
		}, "screen lock dir", VerdictError, []string{"mode 0770", "chmod 700 /tmp/codeman-1000/screen-lock"}, false},
		{"ClaimsAFile", func(m *fakeMachine) {
			m.fs["/tmp/codeman-1000/claims"] = fakeInfo{mode: 0o600, uid: fakeUID}
		}, "claims dir", VerdictError, []string{"is not a directory", "rm /tmp/codeman-1000/claims"}, false},
		{"StateWritableByOthers", func(m *fakeMachine) {
			m.fs["/home/u/.local/state/codeman"] = fakeInfo{mode: fs.ModeDir | 0o777, uid: fakeUID}
		}, "state dir", VerdictError, []string{"mode 0777", "chmod 700 /home/u/.local/state/codeman"}, false},
		{"StateReadOnly", func(m *fakeMachine) {
			m.fs["/home/u/.local/state/codeman"] = fakeInfo{mode: fs.ModeDir | 0o500, uid: fakeUID}
		}, "state dir", VerdictError, []string{"mode 0500", "cannot write"}, false},
		{"StateMissing", func(m *fakeMachine) { delete(m.fs, "/home/u/.local/state/codeman") },
			"state dir", VerdictOK, []string{"does not exist yet"}, false},
		{"PathsRefused", func(m *fakeMachine) {
			m.pathsErr = errors.New("runtime dir: private dir /run/user/1000/codeman has mode 0755, want 0700")
		}, "runtime dir", VerdictError, []string{"has mode 0755", "chmod 700"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := healthyMachine()
			tc.breakIt(m)
			rep := runFake(t, m)
			wantCheck(t, rep, tc.check, tc.verdict, tc.want...)
			if tc.verdict == VerdictError && rep.Errors != 1 {
				t.Errorf("%d errors, want 1:%s", rep.Errors, dumpReport(rep))
			}
			if tc.pathsErr {
				// No daemon is looked for with unusable paths.
				wantCheck(t, rep, "daemon", VerdictNote, "runtime dir is unusable")
			}
		})
	}
}

func TestDoctor_Config(t *testing.T) {
	m := healthyMachine()
	_, m.confErr = config.Parse(m.config.Path, []byte("[respawn]\nsend_clear = true\n\ncompletion_confirm = \"soon\"\n"))
	if m.confErr == nil {
		t.Fatal("a bad duration parsed")
	}
	rep := runFake(t, m)
	wantCheck(t, rep, "config", VerdictError, "config.toml:4", "respawn.completion_confirm", "codeman config check")
	wantCheck(t, rep, "ai check", VerdictNote, "the config does not load")

	m = healthyMachine()
	delete(m.fs, m.config.Path)
	wantCheck(t, runFake(t, m), "config", VerdictOK, "the defaults apply")
}

func TestDoctor_AICheck(t *testing.T) {
	m := healthyMachine()
	m.config.Checks.ClaudePath = "/opt/claude/bin/claude"
	m.checker = fmt.Errorf("%w: checks.claude_path /opt/claude/bin/claude is not an executable", respawn.ErrCheckerUnavailable)
	rep := runFake(t, m)
	wantCheck(t, rep, "ai check", VerdictWarn, "AI checks are off", "/opt/claude/bin/claude is not an executable", "set checks.claude_path in")

	m.config.Respawn.AIIdleCheck.Enabled, m.config.Respawn.AIPlanCheck.Enabled = false, false
	m.config.Profiles = map[string]respawn.Config{"quiet": m.config.Respawn}
	wantCheck(t, runFake(t, m), "ai check", VerdictNote, "off in every profile")

	m.checker = nil
	wantCheck(t, runFake(t, m), "ai check", VerdictOK, "checks.claude_path /opt/claude/bin/claude")
}

func TestDoctor_DaemonOlderThanBinary(t *testing.T) {
	m := healthyMachine()
	m.daemon.healths[0].Version = "v1.1.0"
	rep := runFake(t, m)
	wantCheck(t, rep, "daemon version", VerdictWarn, "the daemon runs codeman v1.1.0, this binary is v1.2.0", "kill 77")
	if rep.Errors != 0 {
		t.Errorf("a version difference is an error:%s", dumpReport(rep))
	}
}

func TestDoctor_PaneNotControlled(t *testing.T) {
	m := healthyMachine()
	m.daemon.panes = append(m.daemon.panes, api.PaneStatus{Pane: fakeScreenA, Target: fakeScreenA,
		Problem: `unknown profile "nightly" (known: overnight-autonomous, ralph-todo)`})
	m.daemon.healths[0].NotAdopted = 1
	rep := runFake(t, m)
	wantCheck(t, rep, "pane "+fakeScreenA, VerdictError, "enabled but not controlled", `unknown profile "nightly"`, "codeman detach "+fakeScreenA)
	wantCheck(t, rep, "pane work:1.0 (%3)", VerdictOK)
	if rep.Errors != 1 {
		t.Errorf("%d errors, want 1:%s", rep.Errors, dumpReport(rep))
	}
}

func TestDoctor_PanesNotListed(t *testing.T) {
	m := healthyMachine()
	m.daemon.panesErr = errors.New("daemon answered 500 Internal Server Error")
	wantCheck(t, runFake(t, m), "panes", VerdictError, "500", "daemon.log")
}

// Health.Controllers differs from Health.Panes for a moment while a pane
// is attached; it is a problem only when it lasts.
func TestDoctor_ControllersSettle(t *testing.T) {
	for _, tc := range []struct {
		name    string
		healths []api.Health
		waits   int
		verdict Verdict
	}{
		{"Settles", []api.Health{{PID: 77, Version: fakeVersion, Panes: 2, Controllers: 1}, {PID: 77, Version: fakeVersion, Panes: 2, Controllers: 2}}, 1, VerdictOK},
		{"Stays", []api.Health{{PID: 77, Version: fakeVersion, Panes: 2, Controllers: 1}}, int(DefaultControllerSettle / controllerRecheck), VerdictError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := healthyMachine()
			m.daemon.healths = tc.healths
			d := newFakeDoctor(m)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done := make(chan Report, 1)
			go func() { done <- d.Run(ctx) }()
			for range tc.waits {
				if err := m.clock.BlockUntilContext(ctx, 1); err != nil {
					t.Fatalf("the doctor did not wait for the counts to settle: %v", err)
				}
				m.clock.Advance(controllerRecheck)
			}
			var rep Report
			select {
			case rep = <-done:
			case <-ctx.Done():
				t.Fatal("the doctor still waits after the settle time")
			}
			wantCheck(t, rep, "daemon", tc.verdict)
			if tc.verdict == VerdictError {
				wantCheck(t, rep, "daemon", tc.verdict, "controls 2 panes but runs 1 controller loop", "kill 77")
			}
			if m.daemon.asked != tc.waits+1 {
				t.Errorf("health asked %d times, want %d", m.daemon.asked, tc.waits+1)
			}
		})
	}
}

func TestDoctor_NoDaemon(t *testing.T) {
	m := healthyMachine()
	m.daemon = nil
	rep := runFake(t, m)
	wantCheck(t, rep, "daemon", VerdictNote, "none runs and no pane is enabled")
	if rep.Errors != 0 || rep.Warnings != 0 {
		t.Errorf("no daemon is a problem by itself:%s", dumpReport(rep))
	}

	m.enabled = []string{fakeTmuxA}
	delete(m.programs, "tmux")
	rep = runFake(t, m)
	wantCheck(t, rep, "daemon", VerdictNote, "1 enabled pane wait")
	wantCheck(t, rep, "pane "+fakeTmuxA, VerdictError, "no daemon runs", "codeman daemon")
	wantCheck(t, rep, "tmux", VerdictError, "an enabled pane is a tmux pane")
}

func TestDoctor_DaemonNotAnswering(t *testing.T) {
	m := healthyMachine()
	d := newFakeDoctor(m)
	d.Connect = func(context.Context, api.Paths) (Daemon, error) {
		return nil, fmt.Errorf("get health: %w", context.DeadlineExceeded)
	}
	wantCheck(t, d.Run(context.Background()), "daemon", VerdictError, "does not answer", "daemon.log")
}
