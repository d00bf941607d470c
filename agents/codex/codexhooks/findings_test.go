package codexhooks

import (
	"errors"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

// healthyStatus is codeman's hooks installed in hooks.json and trusted.
func healthyStatus() StatusReport {
	return StatusReport{
		StatusReport: hooks.StatusReport{SettingsPath: "/home/u/.codex/hooks.json", Exists: true, Installed: []hooks.InstalledEntry{
			{Entry: hooks.Entry{Event: "Stop"}, Program: "/usr/local/bin/codeman", Executable: true, Current: true},
		}},
		ConfigPath: "/home/u/.codex/config.toml",
		Handlers:   []HandlerStatus{{InstalledEntry: hooks.InstalledEntry{Entry: hooks.Entry{Event: "Stop"}}, Trust: TrustTrusted}},
		ModelNudge: NudgeHidden,
	}
}

// wantFinding fails unless fs holds a finding called name at level whose
// message and fix say every one of want.
func wantFinding(t *testing.T, fs []hooks.Finding, name string, level hooks.Level, want ...string) hooks.Finding {
	t.Helper()
	for _, f := range fs {
		if f.Name != name {
			continue
		}
		if f.Level != level {
			t.Errorf("%s at level %d, want %d: %+v", name, f.Level, level, f)
		}
		for _, w := range want {
			if !strings.Contains(f.Message+" | "+f.Fix, w) {
				t.Errorf("%s does not say %q: %+v", name, w, f)
			}
		}
		return f
	}
	t.Fatalf("no finding %q in %+v", name, fs)
	return hooks.Finding{}
}

// Untrusted, disabled, copied or missing hooks are warnings that say what
// to do; a disabled one is not fixed by an install, which leaves that
// line, so the finding names the line instead.
func TestFindings_Hooks(t *testing.T) {
	wantFinding(t, findings(healthyStatus(), nil), "hooks (codex)", hooks.LevelOK, "installed in /home/u/.codex/hooks.json and trusted in /home/u/.codex/config.toml")

	st := healthyStatus()
	st.Handlers[0].Trust = TrustModified
	wantFinding(t, findings(st, nil), "hooks (codex)", hooks.LevelWarn, "Stop modified", "codeman hooks install --agent codex")

	st = healthyStatus()
	st.Handlers[0].Trust, st.Handlers[0].Line = TrustDisabled, 7
	f := wantFinding(t, findings(st, nil), "hooks (codex)", hooks.LevelWarn, "disabled in /home/u/.codex/config.toml (Stop)", "Codex never runs them",
		"remove the enabled = false at /home/u/.codex/config.toml:7, or enable them in Codex's /hooks")
	if strings.Contains(f.Fix, "codeman hooks install") {
		t.Errorf("the fix of a disabled hook is an install, which does not change it: %+v", f)
	}

	st = healthyStatus()
	st.Copies = []hooks.Entry{{Event: "Stop"}, {Event: "Stop"}}
	wantFinding(t, findings(st, nil), "hooks (codex)", hooks.LevelWarn, "2 copies of codeman's hooks", "Stop (2)", "keeps one of each")

	st = healthyStatus()
	st.Installed = nil
	wantFinding(t, findings(st, nil), "hooks (codex)", hooks.LevelWarn, "not installed in /home/u/.codex/hooks.json", "--agent codex")

	wantFinding(t, findings(StatusReport{}, errors.New("read config /home/u/.codex/config.toml:3: bad")), "hooks (codex)", hooks.LevelError,
		"config.toml:3: bad", "codeman hooks status --agent codex")
}

// With Codex's default config every usage limit opens the model-switch
// menu, which codeman leaves to a person: the finding names the setting
// that turns it off, and there is none once the config sets it, or when
// the config could not be read.
func TestFindings_ModelNudge(t *testing.T) {
	st := healthyStatus()
	st.ModelNudge = NudgeShown
	wantFinding(t, findings(st, nil), "codex usage limits", hooks.LevelWarn, "default config", "model-switch menu", "leaves to a person",
		"set hide_rate_limit_model_nudge = true in the [notice] table of /home/u/.codex/config.toml")

	for _, state := range []string{NudgeHidden, NudgeUnread} {
		st := healthyStatus()
		st.ModelNudge = state
		if fs := findings(st, nil); len(fs) != 1 {
			t.Errorf("config read as %q: %+v, want the hooks finding alone", state, fs)
		}
	}
	st = healthyStatus()
	st.ModelNudge = NudgeShown
	if fs := findings(st, errors.New("read config /home/u/.codex/config.toml:3: bad")); len(fs) != 1 {
		t.Errorf("an unreadable config gave %+v, want the hooks finding alone", fs)
	}
}
