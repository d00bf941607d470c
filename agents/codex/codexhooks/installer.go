package codexhooks

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/codeman-dev/codeman/hooks"
)

// Installer is the Codex CLI's hooks installer, as the registry names it.
type Installer struct{}

var _ hooks.Installer = Installer{}

// flagNoTrust leaves config.toml alone on install.
const flagNoTrust = "no-trust"

// restartNote ends every Codex hooks command's output.
const restartNote = "Codex sessions started before a hooks change have to be restarted to load it."

// Flags: --no-trust, for install.
func (Installer) Flags() []hooks.Flag {
	return []hooks.Flag{{Name: flagNoTrust, Bool: true, InstallOnly: true,
		Usage: "do not mark the hooks trusted in Codex's config.toml; Codex asks you to review them"}}
}

// options are the installer's options for r: CODEX_HOME as Codex finds it.
func options(r hooks.Request) (Options, error) {
	home, err := Home(r.Env)
	if err != nil {
		return Options{}, err
	}
	return Options{Home: home, Binary: r.Binary, Handler: r.Handler, NoTrust: r.Flag(flagNoTrust) == "true"}, nil
}

// Install writes codeman's hooks into hooks.json and trusts them in
// config.toml.
func (Installer) Install(w io.Writer, r hooks.Request) error {
	opts, err := options(r)
	if err != nil {
		return err
	}
	rep, err := Install(opts)
	if err != nil {
		return err
	}
	if rep.Changed {
		hooks.PrintInstalled(w, rep.Report, opts.Command())
	} else {
		fmt.Fprintf(w, "codeman hooks already installed in %s\n", rep.SettingsPath)
	}
	switch {
	case opts.NoTrust:
		fmt.Fprintf(w, "  not trusted in %s: Codex asks you to review them (\"Hooks need review\") before they run\n", rep.ConfigPath)
	case rep.ConfigChanged:
		fmt.Fprintf(w, "  trusted in %s: %d written, %d removed\n", rep.ConfigPath, len(rep.Trusted), len(rep.Untrusted))
	default:
		fmt.Fprintf(w, "  already trusted in %s\n", rep.ConfigPath)
	}
	for _, d := range rep.Disabled {
		fmt.Fprintf(w, "  but %s is disabled: %s, so Codex does not run it; codeman leaves that line to you: remove it, or enable the hook in Codex's /hooks\n",
			d.Event, disabledBy(rep.ConfigPath, d.Line))
	}
	hooks.PrintFallback(w, r)
	if rep.Changed || rep.ConfigChanged {
		fmt.Fprintln(w, restartNote)
	}
	return nil
}

// Uninstall removes codeman's hooks and their trust.
func (Installer) Uninstall(w io.Writer, r hooks.Request) error {
	opts, err := options(r)
	if err != nil {
		return err
	}
	rep, err := Uninstall(opts)
	if err != nil {
		return err
	}
	if !rep.Changed && !rep.ConfigChanged {
		fmt.Fprintf(w, "no codeman hooks in %s; nothing changed\n", rep.SettingsPath)
		return nil
	}
	hooks.PrintRemoved(w, rep.Report)
	if rep.ConfigChanged {
		fmt.Fprintf(w, "  trust removed from %s: %d entries\n", rep.ConfigPath, len(rep.Untrusted))
	}
	fmt.Fprintln(w, restartNote)
	return nil
}

// Status shows codeman's hooks in hooks.json, what they run and their
// trust.
func (Installer) Status(w io.Writer, r hooks.Request) error {
	opts, err := options(r)
	if err != nil {
		return err
	}
	st, err := Status(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "hooks: %s", st.SettingsPath)
	if !st.Exists {
		fmt.Fprint(w, " (does not exist)")
	}
	fmt.Fprintf(w, "\ntrust: %s\n", st.ConfigPath)
	if len(st.Handlers) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EVENT\tPROGRAM\tEXECUTABLE\tTHIS BINARY\tTRUST")
		for _, h := range st.Handlers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.Event, h.Program, hooks.YesNo(h.Executable), hooks.YesNo(h.Current), h.Trust)
		}
		tw.Flush()
	}
	hooks.PrintEntries(w, "missing", st.Missing)
	hooks.PrintEntries(w, "outdated", st.Outdated)
	hooks.PrintEntries(w, "copies", st.Copies)
	disabled := st.Disabled()
	for _, h := range disabled {
		fmt.Fprintf(w, "  disabled: %s (%s)\n", h.Event, disabledBy(st.ConfigPath, h.Line))
	}
	fmt.Fprintln(w, "state: "+st.state(len(disabled)))
	fmt.Fprintln(w, restartNote)
	return nil
}

// state is Status's last word on st, with disabled handlers of codeman's.
func (st StatusReport) state(disabled int) string {
	const install, uninstall = "codeman hooks install --agent codex", "codeman hooks uninstall --agent codex"
	switch {
	case st.UpToDate():
		return "installed, up to date and trusted"
	case len(st.Installed) == 0:
		return "not installed; run: " + install
	case len(st.Copies) > 0:
		return fmt.Sprintf("installed, and %s of codeman's hooks run as well; run: %s to keep one of each, or %s", hooks.Copies(st.Copies), install, uninstall)
	case st.StatusReport.UpToDate() && disabled > 0 && st.countTrust(TrustTrusted, TrustDisabled) == len(st.Handlers):
		return fmt.Sprintf("installed and trusted, but %d disabled in %s, which Codex does not run: remove the enabled = false line named above (codeman leaves it to you), or enable them in Codex's /hooks",
			disabled, st.ConfigPath)
	case st.StatusReport.UpToDate():
		return "installed but not all trusted; run: " + install + ", or trust them in Codex's /hooks"
	}
	return "out of date; run: " + install
}

// countTrust counts the handlers in any of the trust states.
func (st StatusReport) countTrust(states ...string) int {
	n := 0
	for _, h := range st.Handlers {
		if slices.Contains(states, h.Trust) {
			n++
		}
	}
	return n
}

// disabledBy names the line of config.toml that disables a handler.
func disabledBy(configPath string, line int) string {
	if line == 0 {
		return configPath + " sets enabled = false for it"
	}
	return fmt.Sprintf("%s:%d sets enabled = false", configPath, line)
}

// Check reads codeman's hooks in Codex's hooks.json and their trust, and
// whether config.toml opens the model-switch menu at a usage limit.
func (Installer) Check(r hooks.Request) []hooks.Finding {
	opts, err := options(r)
	if err != nil {
		return []hooks.Finding{findingOf(StatusReport{}, err)}
	}
	st, err := Status(opts)
	return findings(st, err)
}

// findings are Check's verdicts on st.
func findings(st StatusReport, err error) []hooks.Finding {
	out := []hooks.Finding{findingOf(st, err)}
	if err == nil && st.ModelNudge == NudgeShown {
		out = append(out, nudgeFinding(st.ConfigPath))
	}
	return out
}

// nudgeFinding: with Codex's default config every usage limit opens a
// menu whose Enter switches the model, which codeman leaves to a person;
// Codex's own "never show again" writes the same setting.
func nudgeFinding(configPath string) hooks.Finding {
	return hooks.Finding{Name: "codex usage limits", Level: hooks.LevelWarn,
		Message: "with Codex's default config every usage limit opens its model-switch menu (\"Approaching rate limits\"), " +
			"which codeman leaves to a person: an unattended Codex waits at every limit until someone answers it",
		Fix: fmt.Sprintf("turn the menu off: set %s = true in the [%s] table of %s", NoticeModelNudge, NoticeTable, configPath)}
}

// findingOf judges codeman's hooks in Codex's hooks.json and their trust
// in its config.toml, as read into st.
func findingOf(st StatusReport, err error) hooks.Finding {
	const name, fix = "hooks (codex)", "codeman hooks install --agent codex"
	switch {
	case err != nil:
		return hooks.Finding{Name: name, Level: hooks.LevelError, Message: err.Error(), Fix: "fix the file it names; codeman hooks status --agent codex reads it again"}
	case len(st.Installed) == 0:
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: "not installed in " + st.SettingsPath + ": codeman reads Codex panes from the screen alone", Fix: fix}
	case len(st.Copies) > 0:
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("%d copies of codeman's hooks in %s run besides one of each (%s): Codex runs every one", len(st.Copies), st.SettingsPath, hooks.EntryList(st.Copies)),
			Fix:     fix + " (keeps one of each)"}
	case st.UpToDate():
		return hooks.Finding{Name: name, Level: hooks.LevelOK, Message: "installed in " + st.SettingsPath + " and trusted in " + st.ConfigPath}
	}
	var untrusted, disabled, lines []string
	for _, h := range st.Handlers {
		switch h.Trust {
		case TrustTrusted:
		case TrustDisabled:
			disabled = append(disabled, h.Event)
			if h.Line > 0 {
				lines = append(lines, fmt.Sprintf("%s:%d", st.ConfigPath, h.Line))
			}
		default:
			untrusted = append(untrusted, h.Event+" "+h.Trust)
		}
	}
	switch {
	case len(untrusted) > 0:
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("not trusted in %s (%s): Codex does not run them until a person trusts them", st.ConfigPath, strings.Join(untrusted, ", ")), Fix: fix}
	case len(disabled) > 0 && st.StatusReport.UpToDate():
		// install leaves enabled = false as it is: only the person can
		// tell their choice from a leftover.
		where := "the enabled = false of their [hooks.state] tables in " + st.ConfigPath
		if len(lines) == len(disabled) {
			where = "the enabled = false at " + strings.Join(lines, ", ")
		}
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("disabled in %s (%s): Codex never runs them, and codeman hooks install leaves that to you", st.ConfigPath, strings.Join(disabled, ", ")),
			Fix:     "remove " + where + ", or enable them in Codex's /hooks"}
	}
	return hooks.Finding{Name: name, Level: hooks.LevelWarn, Message: "out of date in " + st.SettingsPath, Fix: fix}
}
