package copilothooks

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/codeman-dev/codeman/hooks"
)

// Installer is the GitHub Copilot CLI's hooks installer, as the registry
// names it.
type Installer struct{}

var _ hooks.Installer = Installer{}

// flagProject points the commands at a repository's .github/hooks.
const flagProject = "project"

// restartNote ends every hooks command's output that changed something.
const restartNote = "Copilot sessions started before a hooks change may have to be restarted to load it."

// trustNote: Copilot runs a repository's hooks only in a trusted folder.
const trustNote = "  Copilot runs a repository's hooks only once the folder is trusted (its \"Confirm folder trust\" dialog, or --trust-folder with -p)"

// Flags: --project DIR, for every hooks command.
func (Installer) Flags() []hooks.Flag {
	return []hooks.Flag{{Name: flagProject, Usage: "use `DIR`/.github/hooks/codeman.json instead of the user's Copilot hooks"}}
}

// request is what a hooks command asks, resolved: the options and the
// other sources Copilot reads beside the file.
type request struct {
	opts    Options
	src     Sources
	project bool
}

// resolve finds the hooks file r names, and what Copilot reads beside it.
func resolve(r hooks.Request) (request, error) {
	home, homeErr := Home(r.Env)
	if dir := r.Flag(flagProject); dir != "" {
		abs, err := hooks.ProjectDir(dir)
		if err != nil {
			return request{}, err
		}
		// Without a home only the repository's sources are read.
		return request{opts: Options{Path: ProjectHooksPath(abs), Binary: r.Binary, Handler: r.Handler}, src: projectSources(abs, home), project: true}, nil
	}
	if homeErr != nil {
		return request{}, homeErr
	}
	return request{opts: Options{Path: HooksPath(home), Binary: r.Binary, Handler: r.Handler}, src: userSources(home)}, nil
}

// command is the hooks command for this request's file.
func (q request) command(verb string) string {
	s := "codeman hooks " + verb + " --agent copilot"
	if q.project {
		s += " --project " + hooks.ShellQuote(projectOf(q.opts.Path))
	}
	return s
}

// projectOf is the repository of a project hooks file.
func projectOf(path string) string {
	return strings.TrimSuffix(path, "/.github/hooks/"+FileName)
}

// Install writes codeman's hooks file.
func (Installer) Install(w io.Writer, r hooks.Request) error {
	q, err := resolve(r)
	if err != nil {
		return err
	}
	rep, err := Install(q.opts)
	if err != nil {
		return err
	}
	if rep.Changed {
		hooks.PrintInstalled(w, rep.hooksReport(), q.opts.Command()+" EVENT")
	} else {
		fmt.Fprintf(w, "codeman hooks already installed in %s; nothing changed\n", rep.Path)
	}
	if rep.UserHooks > 0 {
		fmt.Fprintf(w, "  %d hook(s) of your own in it kept as they are\n", rep.UserHooks)
	}
	if q.project {
		fmt.Fprintln(w, trustNote)
	}
	hooks.PrintFallback(w, r)
	if st, err := Status(q.opts, q.src); err == nil {
		printWarnings(w, st)
	}
	if rep.Changed {
		fmt.Fprintln(w, restartNote)
	}
	return nil
}

// Uninstall removes codeman's hooks from its hooks file.
func (Installer) Uninstall(w io.Writer, r hooks.Request) error {
	q, err := resolve(r)
	if err != nil {
		return err
	}
	rep, err := Uninstall(q.opts)
	if err != nil {
		return err
	}
	if !rep.Changed {
		fmt.Fprintf(w, "no codeman hooks in %s; nothing changed\n", rep.Path)
		return nil
	}
	hooks.PrintRemoved(w, rep.hooksReport())
	if rep.Gone {
		fmt.Fprintln(w, "  nothing else was in it: the file is gone")
	} else if rep.UserHooks > 0 {
		fmt.Fprintf(w, "  %d hook(s) of your own left in it\n", rep.UserHooks)
	}
	fmt.Fprintln(w, restartNote)
	return nil
}

// Status shows codeman's hooks, what they run, and what else decides
// whether Copilot runs them.
func (Installer) Status(w io.Writer, r hooks.Request) error {
	q, err := resolve(r)
	if err != nil {
		return err
	}
	st, err := Status(q.opts, q.src)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "hooks: %s", st.Path)
	if !st.Exists {
		fmt.Fprint(w, " (does not exist)")
	}
	fmt.Fprintln(w)
	if len(st.Installed) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EVENT\tPROGRAM\tEXECUTABLE\tTHIS BINARY")
		for _, e := range st.Installed {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Event, e.Program, hooks.YesNo(e.Executable), hooks.YesNo(e.Current))
		}
		tw.Flush()
	}
	hooks.PrintEntries(w, "missing", st.Missing)
	hooks.PrintEntries(w, "outdated", st.Outdated)
	hooks.PrintEntries(w, "copies", st.Copies)
	if st.UserHooks > 0 {
		fmt.Fprintf(w, "  %d hook(s) of your own in it\n", st.UserHooks)
	}
	printWarnings(w, st)
	fmt.Fprintln(w, "state: "+q.state(st))
	if q.project {
		fmt.Fprintln(w, trustNote)
	}
	fmt.Fprintln(w, restartNote)
	return nil
}

// printWarnings says what besides the file keeps codeman's hooks from
// running once, or could not be read.
func printWarnings(w io.Writer, st StatusReport) {
	for _, path := range st.Disabled {
		fmt.Fprintf(w, "  but %s sets disableAllHooks: Copilot runs no hooks, codeman's included; remove that key to turn them on\n", path)
	}
	for _, e := range st.Elsewhere {
		fmt.Fprintf(w, "  codeman's hooks are also in %s (%s): Copilot runs them as well, so each such event reaches codeman more than once; %s\n", e.Path, hooks.EntryList(e.Entries), e.fix())
	}
	for _, u := range st.Unread {
		fmt.Fprintf(w, "  could not read %s\n", u)
	}
}

// state is Status's last word on st.
func (q request) state(st StatusReport) string {
	install := q.command("install")
	switch {
	case len(st.Installed) == 0:
		return "not installed; run: " + install
	case len(st.Copies) > 0:
		return fmt.Sprintf("installed, and %s of codeman's hooks run as well; run: %s to keep one of each, or %s", hooks.Copies(st.Copies), install, q.command("uninstall"))
	case !st.UpToDate():
		return "out of date; run: " + install
	case len(st.Disabled) > 0:
		return "installed and up to date, but turned off by disableAllHooks (above)"
	}
	return "installed and up to date"
}

// Check reads codeman's hooks in the user's Copilot hooks (never a
// repository's), and the user's settings beside them.
func (Installer) Check(r hooks.Request) []hooks.Finding {
	r.Flags = nil
	q, err := resolve(r)
	if err != nil {
		return []hooks.Finding{findingOf(StatusReport{}, err, r.Binary)}
	}
	st, err := Status(q.opts, q.src)
	return findings(st, err, r.Binary)
}

// findingName is the doctor's name of every Copilot hooks finding.
const findingName = "hooks (copilot)"

// installHooks is the fix of most hooks problems.
const installHooks = "codeman hooks install --agent copilot (then restart the Copilot sessions that run)"

// findings are Check's verdicts on st: the hooks file's, then what else
// keeps the hooks from running once.
func findings(st StatusReport, err error, binary string) []hooks.Finding {
	out := []hooks.Finding{findingOf(st, err, binary)}
	if err != nil {
		return out
	}
	if len(st.Disabled) > 0 {
		out = append(out, hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("disableAllHooks is set in %s: Copilot runs no hooks, so codeman reads Copilot panes from the screen alone", strings.Join(st.Disabled, ", ")),
			Fix:     "remove disableAllHooks from " + strings.Join(st.Disabled, ", ")})
	}
	for _, e := range st.Elsewhere {
		out = append(out, hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("copies of codeman's hooks in %s (%s): Copilot runs them besides %s, so each such event reaches codeman more than once", e.Path, hooks.EntryList(e.Entries), st.Path),
			Fix:     e.fix() + " (codeman hooks install writes only " + st.Path + ")"})
	}
	for _, u := range st.Unread {
		out = append(out, hooks.Finding{Name: findingName, Level: hooks.LevelNote,
			Message: "could not read " + u + ": codeman cannot tell whether it turns hooks off or holds copies of codeman's"})
	}
	return out
}

// findingOf judges codeman's hooks file as read into st: installed,
// complete, and running an executable, binary.
func findingOf(st StatusReport, err error, binary string) hooks.Finding {
	if err != nil {
		return hooks.Finding{Name: findingName, Level: hooks.LevelError, Message: err.Error(), Fix: "fix or move aside the file it names; codeman hooks status --agent copilot reads it again"}
	}
	if len(st.Installed) == 0 {
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: "not installed in " + st.Path + ": codeman reads Copilot panes from the screen alone", Fix: installHooks}
	}
	broken, other := st.hooksStatus().Programs()
	switch {
	case len(broken) > 0:
		return hooks.Finding{Name: findingName, Level: hooks.LevelError,
			Message: fmt.Sprintf("the hooks in %s run %s, not an executable: every one of them fails", st.Path, strings.Join(broken, ", ")),
			Fix:     installHooks}
	case len(other) > 0:
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("the hooks in %s run %s, not this binary (%s)", st.Path, strings.Join(other, ", "), binary),
			Fix:     "if this is the codeman you use: " + installHooks}
	case len(st.Copies) > 0:
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("%s of codeman's hooks in %s run besides one of each (%s)", hooks.Copies(st.Copies), st.Path, hooks.EntryList(st.Copies)),
			Fix:     installHooks + " (keeps one of each)"}
	case !st.UpToDate():
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("out of date in %s (%s)", st.Path, hooks.Changes(st.hooksStatus())),
			Fix:     installHooks}
	}
	return hooks.Finding{Name: findingName, Level: hooks.LevelOK, Message: "installed in " + st.Path + ", running this binary"}
}

// fix says how to get rid of copies of codeman's hooks in e: another
// install's file of codeman's (the user's beside a repository's) goes
// with its uninstall; anything else is the person's to edit.
func (e Elsewhere) fix() string {
	if filepath.Base(e.Path) != FileName {
		return "remove codeman's hooks from " + e.Path
	}
	if dir, ok := strings.CutSuffix(e.Path, "/.github/hooks/"+FileName); ok {
		return "keep one install: codeman hooks uninstall --agent copilot --project " + hooks.ShellQuote(dir) + ", or this one"
	}
	return "keep one install: codeman hooks uninstall --agent copilot removes the user's, or uninstall this one"
}
