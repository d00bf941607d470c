package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

// installHooks is the fix of every hooks problem.
const installHooks = "codeman hooks install (then restart the Claude Code sessions that run)"

// checkHooks checks codeman's hooks in the Claude Code user settings, as
// codeman hooks status reports them: installed, complete, and running an
// executable, this binary.
func (d *Doctor) checkHooks() Check {
	const name = "hooks"
	st, err := d.HooksStatus()
	if err != nil {
		return Check{Name: name, Verdict: VerdictError, Message: err.Error(), Fix: "fix the settings file it names; codeman hooks status reads it again"}
	}
	if len(st.Installed) == 0 {
		return Check{Name: name, Verdict: VerdictWarn,
			Message: "not installed in " + st.SettingsPath + ": codeman sees a turn's end from the screen alone, later and with less certainty",
			Fix:     installHooks}
	}
	var broken, other []string
	for _, e := range st.Installed {
		switch {
		case !e.Executable:
			broken = appendNew(broken, e.Program)
		case !e.Current:
			other = appendNew(other, e.Program)
		}
	}
	switch {
	case len(broken) > 0:
		return Check{Name: name, Verdict: VerdictError,
			Message: fmt.Sprintf("the hooks in %s run %s, not an executable: Claude Code reports every hook as failed", st.SettingsPath, strings.Join(broken, ", ")),
			Fix:     installHooks}
	case len(other) > 0:
		return Check{Name: name, Verdict: VerdictWarn,
			Message: fmt.Sprintf("the hooks in %s run %s, not this binary (%s)", st.SettingsPath, strings.Join(other, ", "), d.Binary),
			Fix:     "if this is the codeman you use: " + installHooks}
	case !st.UpToDate():
		return Check{Name: name, Verdict: VerdictWarn,
			Message: fmt.Sprintf("out of date in %s (%s)", st.SettingsPath, hookChanges(st)),
			Fix:     installHooks}
	}
	return Check{Name: name, Verdict: VerdictOK, Message: "installed in " + st.SettingsPath + ", running this binary"}
}

// hookChanges lists what codeman hooks install would change.
func hookChanges(st hooks.StatusReport) string {
	var parts []string
	for _, g := range []struct {
		label   string
		entries []hooks.Entry
	}{{"missing", st.Missing}, {"outdated", st.Outdated}, {"copies", st.Copies}} {
		if len(g.entries) == 0 {
			continue
		}
		parts = append(parts, g.label+": "+hooks.EntryList(g.entries))
	}
	return strings.Join(parts, "; ")
}

func appendNew(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}

// checkConfig loads the config file. It returns the file, nil when it does
// not load.
func (d *Doctor) checkConfig() (*config.File, Check) {
	const name = "config"
	file, err := d.Config()
	if err != nil {
		return nil, Check{Name: name, Verdict: VerdictError, Message: err.Error(),
			Fix: "fix the key on the line it names; codeman config check validates the file"}
	}
	if _, err := d.Stat(file.Path); errors.Is(err, fs.ErrNotExist) {
		return file, Check{Name: name, Verdict: VerdictOK, Message: "no " + file.Path + ": the defaults apply"}
	}
	return file, Check{Name: name, Verdict: VerdictOK, Message: file.Path + " is valid"}
}

// checkAI checks that the AI checks find their claude: the config's
// checks.claude_path, else claude on PATH. Without it the daemon decides
// without them, which matters only when a profile enables them.
func (d *Doctor) checkAI(file *config.File) Check {
	const name = "ai check"
	if file == nil {
		return Check{Name: name, Verdict: VerdictNote, Message: "not checked: the config does not load (see above)"}
	}
	where := "claude on PATH"
	if p := file.Checks.ClaudePath; p != "" {
		where = "checks.claude_path " + p
	}
	err := d.Checker(file.Checks.ClaudePath)
	switch {
	case err == nil:
		return Check{Name: name, Verdict: VerdictOK, Message: "AI checks run " + where}
	case !aiChecksEnabled(file):
		return Check{Name: name, Verdict: VerdictNote, Message: "off in every profile, and unavailable: " + err.Error()}
	}
	return Check{Name: name, Verdict: VerdictWarn, Message: "AI checks are off, and idle detection goes on without them: " + err.Error(),
		Fix: "install Claude Code, or set checks.claude_path in " + file.Path}
}

// aiChecksEnabled reports whether [respawn] or any profile enables an AI
// check.
func aiChecksEnabled(file *config.File) bool {
	on := func(c respawn.Config) bool { return c.AIIdleCheck.Enabled || c.AIPlanCheck.Enabled }
	if on(file.Respawn) {
		return true
	}
	for _, c := range file.Profiles {
		if on(c) {
			return true
		}
	}
	return false
}
