package doctor

import (
	"errors"
	"io/fs"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

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
