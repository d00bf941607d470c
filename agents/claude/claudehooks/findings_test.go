package claudehooks

import (
	"errors"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

const binary = "/usr/local/bin/codeman"

// healthyStatus is codeman's hooks installed, complete, running binary.
func healthyStatus() hooks.StatusReport {
	return hooks.StatusReport{SettingsPath: "/home/u/.claude/settings.json", Exists: true, Installed: []hooks.InstalledEntry{
		{Entry: hooks.Entry{Event: "Stop"}, Program: binary, Executable: true, Current: true},
		{Entry: hooks.Entry{Event: "UserPromptSubmit"}, Program: binary, Executable: true, Current: true},
	}}
}

// The doctor's verdicts on codeman's hooks in the Claude Code settings:
// each problem names the file and what install changes.
func TestFindingOf(t *testing.T) {
	for _, tc := range []struct {
		name    string
		breakIt func(*hooks.StatusReport) error
		level   hooks.Level
		want    []string
	}{
		{"Healthy", func(*hooks.StatusReport) error { return nil },
			hooks.LevelOK, []string{"installed in /home/u/.claude/settings.json, running this binary"}},
		{"NotInstalled", func(r *hooks.StatusReport) error { r.Installed = nil; return nil },
			hooks.LevelWarn, []string{"not installed in /home/u/.claude/settings.json", "codeman hooks install"}},
		{"OtherBinary", func(r *hooks.StatusReport) error {
			r.Installed[1].Program, r.Installed[1].Current = "/opt/codeman", false
			return nil
		}, hooks.LevelWarn, []string{"run /opt/codeman, not this binary (" + binary + ")", "codeman hooks install"}},
		{"NotExecutable", func(r *hooks.StatusReport) error {
			r.Installed[0].Program, r.Installed[0].Executable, r.Installed[0].Current = "/gone/codeman", false, false
			return nil
		}, hooks.LevelError, []string{"run /gone/codeman, not an executable", "codeman hooks install"}},
		{"Outdated", func(r *hooks.StatusReport) error { r.Missing = []hooks.Entry{{Event: "StopFailure"}}; return nil },
			hooks.LevelWarn, []string{"out of date", "missing: StopFailure", "codeman hooks install"}},
		// Copies run as the others do: counted, and install removes them.
		{"Copies", func(r *hooks.StatusReport) error {
			r.Copies = []hooks.Entry{{Event: "Stop"}, {Event: "Stop"}, {Event: "SessionEnd"}}
			return nil
		}, hooks.LevelWarn, []string{"copies: Stop (2), SessionEnd", "codeman hooks install"}},
		{"Unreadable", func(*hooks.StatusReport) error {
			return errors.New("read settings /home/u/.claude/settings.json: invalid character '}' at line 3")
		}, hooks.LevelError, []string{"line 3", "fix the settings file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := healthyStatus()
			err := tc.breakIt(&st)
			f := findingOf(st, err, binary)
			if f.Name != "hooks" || f.Level != tc.level {
				t.Errorf("finding %+v, want %q at level %d", f, "hooks", tc.level)
			}
			for _, w := range tc.want {
				if !strings.Contains(f.Message+" | "+f.Fix, w) {
					t.Errorf("finding %+v does not say %q", f, w)
				}
			}
		})
	}
}
