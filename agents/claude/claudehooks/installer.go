package claudehooks

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/codeman-dev/codeman/hooks"
)

// Installer is Claude Code's hooks installer, as the registry names it.
type Installer struct{}

var _ hooks.Installer = Installer{}

// flagProject points the commands at a project's settings.local.json.
const flagProject = "project"

// restartNote ends every hooks command's output.
const restartNote = "Claude Code sessions started before a hooks change may have to be restarted to load it."

// Flags: --project DIR, for every hooks command.
func (Installer) Flags() []hooks.Flag {
	return []hooks.Flag{{Name: flagProject, Usage: "use `DIR`/.claude/settings.local.json instead of the user settings"}}
}

// options are the install options of the settings file r names.
func options(r hooks.Request) (hooks.InstallOptions, error) {
	path, err := SettingsPath(r.Env, r.Flag(flagProject))
	if err != nil {
		return hooks.InstallOptions{}, err
	}
	return r.Options(path, Entries), nil
}

// Install merges codeman's hooks into the settings file.
func (Installer) Install(w io.Writer, r hooks.Request) error {
	opts, err := options(r)
	if err != nil {
		return err
	}
	rep, err := hooks.Install(opts)
	if err != nil {
		return err
	}
	if !rep.Changed {
		fmt.Fprintf(w, "codeman hooks already installed in %s; nothing changed\n", rep.SettingsPath)
		hooks.PrintFallback(w, r)
		return nil
	}
	hooks.PrintInstalled(w, rep, opts.Command())
	hooks.PrintFallback(w, r)
	fmt.Fprintln(w, restartNote)
	return nil
}

// Uninstall removes codeman's hooks from the settings file.
func (Installer) Uninstall(w io.Writer, r hooks.Request) error {
	opts, err := options(r)
	if err != nil {
		return err
	}
	rep, err := hooks.Uninstall(opts)
	if err != nil {
		return err
	}
	if !rep.Changed {
		fmt.Fprintf(w, "no codeman hooks in %s; nothing changed\n", rep.SettingsPath)
		return nil
	}
	hooks.PrintRemoved(w, rep)
	fmt.Fprintln(w, restartNote)
	return nil
}

// Status shows codeman's hooks in the settings file and what they run.
func (Installer) Status(w io.Writer, r hooks.Request) error {
	opts, err := options(r)
	if err != nil {
		return err
	}
	st, err := hooks.Status(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "settings: %s", st.SettingsPath)
	if !st.Exists {
		fmt.Fprint(w, " (does not exist)")
	}
	fmt.Fprintln(w)
	if len(st.Installed) > 0 {
		printInstalled(w, st.Installed)
	}
	hooks.PrintEntries(w, "missing", st.Missing)
	hooks.PrintEntries(w, "outdated", st.Outdated)
	hooks.PrintEntries(w, "copies", st.Copies)
	switch {
	case st.UpToDate():
		fmt.Fprintln(w, "state: installed and up to date")
	case len(st.Installed) == 0:
		fmt.Fprintln(w, "state: not installed; run: codeman hooks install")
	case len(st.Copies) > 0:
		fmt.Fprintf(w, "state: installed, and %s of codeman's hooks run as well; run: codeman hooks install to keep one of each, or codeman hooks uninstall\n", hooks.Copies(st.Copies))
	default:
		fmt.Fprintln(w, "state: out of date; run: codeman hooks install")
	}
	fmt.Fprintln(w, restartNote)
	return nil
}

func printInstalled(w io.Writer, entries []hooks.InstalledEntry) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tMATCHER\tPROGRAM\tEXECUTABLE\tTHIS BINARY")
	for _, e := range entries {
		matcher := e.Matcher
		if matcher == "" {
			matcher = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Event, matcher, e.Program, hooks.YesNo(e.Executable), hooks.YesNo(e.Current))
	}
	tw.Flush()
}

// Check reads codeman's hooks in the user's settings (never a project's)
// as codeman hooks install would write them.
func (Installer) Check(r hooks.Request) []hooks.Finding {
	r.Flags = nil
	opts, err := options(r)
	if err != nil {
		return []hooks.Finding{findingOf(hooks.StatusReport{}, err, r.Binary)}
	}
	st, err := hooks.Status(opts)
	return []hooks.Finding{findingOf(st, err, r.Binary)}
}

// installHooks is the fix of every hooks problem.
const installHooks = "codeman hooks install (then restart the Claude Code sessions that run)"

// findingOf judges codeman's hooks as read into st: installed, complete,
// and running an executable, binary.
func findingOf(st hooks.StatusReport, err error, binary string) hooks.Finding {
	const name = "hooks"
	if err != nil {
		return hooks.Finding{Name: name, Level: hooks.LevelError, Message: err.Error(), Fix: "fix the settings file it names; codeman hooks status reads it again"}
	}
	if len(st.Installed) == 0 {
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: "not installed in " + st.SettingsPath + ": codeman sees a turn's end from the screen alone, later and with less certainty",
			Fix:     installHooks}
	}
	broken, other := st.Programs()
	switch {
	case len(broken) > 0:
		return hooks.Finding{Name: name, Level: hooks.LevelError,
			Message: fmt.Sprintf("the hooks in %s run %s, not an executable: Claude Code reports every hook as failed", st.SettingsPath, strings.Join(broken, ", ")),
			Fix:     installHooks}
	case len(other) > 0:
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("the hooks in %s run %s, not this binary (%s)", st.SettingsPath, strings.Join(other, ", "), binary),
			Fix:     "if this is the codeman you use: " + installHooks}
	case !st.UpToDate():
		return hooks.Finding{Name: name, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("out of date in %s (%s)", st.SettingsPath, hooks.Changes(st)),
			Fix:     installHooks}
	}
	return hooks.Finding{Name: name, Level: hooks.LevelOK, Message: "installed in " + st.SettingsPath + ", running this binary"}
}
