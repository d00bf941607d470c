package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/hooks"
)

// checkAgent checks an agent's CLI on PATH against the releases codeman
// is tested with, then codeman's hooks in the agent's settings. The hooks
// of an optional agent whose CLI is not there go unchecked: without it
// only its panes are out of reach.
func (d *Doctor) checkAgent(ctx context.Context, a agents.Info) []Check {
	version, found := d.checkRelease(ctx, a)
	checks := []Check{version}
	if !found && a.Release.Optional {
		return checks
	}
	for _, f := range d.Hooks(a) {
		checks = append(checks, Check{Name: f.Name, Verdict: verdictOf(f.Level), Message: f.Message, Fix: f.Fix})
	}
	return checks
}

// checkRelease checks the agent's CLI: found says whether it is on PATH.
func (d *Doctor) checkRelease(ctx context.Context, a agents.Info) (c Check, found bool) {
	r, program := a.Release, a.Programs[0]
	install, tested := r.InstallCommand(), strings.Join(r.Tested, ", ")
	c = Check{Name: a.Name, Verdict: VerdictWarn}
	path, err := d.LookPath(program)
	switch {
	case err != nil && r.Optional:
		c.Verdict, c.Message = VerdictNote, fmt.Sprintf("%s (%s) is not on PATH: only %s panes need it", a.Label, program, a.Label)
		return c, false
	case err != nil:
		c.Message, c.Fix = fmt.Sprintf("%s (%s) not found on PATH, so its version is unknown", a.Label, program), "install a tested version ("+tested+"): "+install
		return c, false
	}
	out, err := d.output(ctx, path, "--version")
	if err != nil {
		c.Message, c.Fix = "version unknown: "+err.Error(), "check that "+path+" runs, or reinstall it: "+install
		return c, true
	}
	v, ok := r.Version(out)
	switch {
	case !ok:
		c.Message, c.Fix = fmt.Sprintf("version unknown: %s --version printed %q", path, firstLine(out)), "reinstall it: "+install
	case r.IsTested(v):
		c.Verdict, c.Message = VerdictOK, fmt.Sprintf("%s %s (%s), a tested version", a.Label, v, path)
	case agents.CompareVersions(v, r.Pinned()) > 0:
		c.Message = fmt.Sprintf("%s %s (%s) is newer than the versions codeman is tested with (%s): its screens may have changed", a.Label, v, path, tested)
		c.Fix = "if codeman misreads a pane (codeman explain shows what it reads), install " + r.Pinned() + ": " + install
	default:
		c.Message = fmt.Sprintf("%s %s (%s) is not a version codeman is tested with (%s)", a.Label, v, path, tested)
		c.Fix = "update it: " + install
	}
	return c, true
}

// verdictOf is the doctor's verdict on a finding of that level.
func verdictOf(l hooks.Level) Verdict {
	switch l {
	case hooks.LevelOK:
		return VerdictOK
	case hooks.LevelNote:
		return VerdictNote
	case hooks.LevelWarn:
		return VerdictWarn
	}
	return VerdictError
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
