package copilothooks

import (
	"errors"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

const binary = "/usr/local/bin/codeman"

// healthyStatus is codeman's hooks installed, complete, running binary.
func healthyStatus() StatusReport {
	return StatusReport{Path: "/home/u/.copilot/hooks/codeman.json", Exists: true, Installed: []hooks.InstalledEntry{
		{Entry: hooks.Entry{Event: "agentStop"}, Program: binary, Executable: true, Current: true},
		{Entry: hooks.Entry{Event: "userPromptSubmitted"}, Program: binary, Executable: true, Current: true},
	}}
}

// The doctor's verdicts on codeman's Copilot hooks: each problem names
// the file and what to do.
func TestFindings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		breakIt func(*StatusReport) error
		level   hooks.Level
		want    []string
	}{
		{"Healthy", func(*StatusReport) error { return nil },
			hooks.LevelOK, []string{"installed in /home/u/.copilot/hooks/codeman.json, running this binary"}},
		{"NotInstalled", func(r *StatusReport) error { r.Installed = nil; return nil },
			hooks.LevelWarn, []string{"not installed in /home/u/.copilot/hooks/codeman.json", "codeman hooks install --agent copilot"}},
		{"OtherBinary", func(r *StatusReport) error {
			r.Installed[1].Program, r.Installed[1].Current = "/opt/codeman", false
			return nil
		}, hooks.LevelWarn, []string{"run /opt/codeman, not this binary (" + binary + ")", "--agent copilot"}},
		{"NotExecutable", func(r *StatusReport) error {
			r.Installed[0].Program, r.Installed[0].Executable, r.Installed[0].Current = "/gone/codeman-hook", false, false
			return nil
		}, hooks.LevelError, []string{"run /gone/codeman-hook, not an executable", "--agent copilot"}},
		{"Outdated", func(r *StatusReport) error { r.Missing = []hooks.Entry{{Event: "sessionEnd"}}; return nil },
			hooks.LevelWarn, []string{"out of date", "missing: sessionEnd", "--agent copilot"}},
		{"Copies", func(r *StatusReport) error {
			r.Copies = []hooks.Entry{{Event: "agentStop"}, {Event: "agentStop"}}
			return nil
		}, hooks.LevelWarn, []string{"2 copies", "agentStop (2)", "keeps one of each"}},
		{"Unreadable", func(*StatusReport) error {
			return errors.New("/home/u/.copilot/hooks/codeman.json:3:5: invalid character '}'")
		}, hooks.LevelError, []string{"codeman.json:3:5", "fix or move aside the file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := healthyStatus()
			err := tc.breakIt(&st)
			fs := findings(st, err, binary)
			if len(fs) != 1 {
				t.Fatalf("findings %+v, want one", fs)
			}
			wantFinding(t, fs[0], tc.level, tc.want...)
		})
	}
}

// disableAllHooks, copies in other files and files that could not be read
// are findings of their own beside the hooks file's.
func TestFindings_Sources(t *testing.T) {
	st := healthyStatus()
	st.Disabled = []string{"/home/u/.copilot/settings.json"}
	st.Elsewhere = []Elsewhere{{Path: "/home/u/.copilot/hooks/old.json", Entries: []hooks.Entry{{Event: "agentStop"}}}}
	st.Unread = []string{"/home/u/.copilot/hooks/bad.json:1:2: boom"}
	fs := findings(st, nil, binary)
	if len(fs) != 4 {
		t.Fatalf("findings %+v", fs)
	}
	wantFinding(t, fs[0], hooks.LevelOK)
	wantFinding(t, fs[1], hooks.LevelWarn, "disableAllHooks is set in /home/u/.copilot/settings.json", "screen alone", "remove disableAllHooks")
	wantFinding(t, fs[2], hooks.LevelWarn, "copies of codeman's hooks in /home/u/.copilot/hooks/old.json (agentStop)", "more than once", "remove codeman's hooks from /home/u/.copilot/hooks/old.json")
	wantFinding(t, fs[3], hooks.LevelNote, "could not read /home/u/.copilot/hooks/bad.json:1:2")
}

func wantFinding(t *testing.T, f hooks.Finding, level hooks.Level, want ...string) {
	t.Helper()
	if f.Name != "hooks (copilot)" || f.Level != level {
		t.Errorf("finding %+v, want hooks (copilot) at level %d", f, level)
	}
	for _, w := range want {
		if !strings.Contains(f.Message+" | "+f.Fix, w) {
			t.Errorf("finding %+v does not say %q", f, w)
		}
	}
}

// Comments and trailing commas go; strings that look like them stay, and
// so do lines and columns.
func TestStripJSONC(t *testing.T) {
	in := "// top\n{\"a\": \"x // y /* z */\", /* c\n d */ \"b\": [1, 2,],\n}\n"
	got := string(stripJSONC([]byte(in)))
	if strings.Count(got, "\n") != strings.Count(in, "\n") || len(got) != len(in) {
		t.Errorf("layout changed: %q", got)
	}
	want := "{\"a\": \"x // y /* z */\",           \"b\": [1, 2 ] }"
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
		t.Errorf("stripJSONC(%q) = %q", in, got)
	}
	if err := hooks.CheckSyntax("x", []byte(got)); err != nil {
		t.Error(err)
	}
}
