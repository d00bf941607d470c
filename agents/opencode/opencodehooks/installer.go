package opencodehooks

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/codeman-dev/codeman/hooks"
)

// Installer is OpenCode's hooks installer, as the registry names it.
type Installer struct{}

var _ hooks.Installer = Installer{}

// flagProject points the commands at a project's .opencode/plugins.
const flagProject = "project"

// restartNote ends every hooks command's output that changed something.
const restartNote = "OpenCode loads plugins when it starts: restart the OpenCode sessions that run to load the change."

// depsNote: OpenCode makes each config dir an npm project at its start.
const depsNote = "  OpenCode installs @opencode-ai/plugin into %s when it starts and finds it missing: that needs the npm registry once (offline, OpenCode's start waits about two minutes for it)\n"

// pureNote: --pure turns plugins off for one run.
const pureNote = "  OpenCode started with --pure (or OPENCODE_PURE=1) loads no plugin of yours, codeman's included"

// Flags: --project DIR, for every hooks command.
func (Installer) Flags() []hooks.Flag {
	return []hooks.Flag{{Name: flagProject, Usage: "use `DIR`/.opencode/plugins/codeman.js instead of the user's OpenCode plugins"}}
}

// request is what a hooks command asks, resolved.
type request struct {
	opts    Options
	env     func(string) string
	also    string // the user's plugin, beside a project's
	project bool
}

// resolve finds the plugin file r names.
func resolve(r hooks.Request) (request, error) {
	global, globalErr := ConfigDir(r.Env)
	if dir := r.Flag(flagProject); dir != "" {
		abs, err := hooks.ProjectDir(dir)
		if err != nil {
			return request{}, err
		}
		q := request{opts: Options{Path: PluginPath(ProjectConfigDir(abs)), Binary: r.Binary, Handler: r.Handler}, env: r.Env, project: true}
		if globalErr == nil {
			q.also = PluginPath(global)
		}
		return q, nil
	}
	if globalErr != nil {
		return request{}, globalErr
	}
	return request{opts: Options{Path: PluginPath(global), Binary: r.Binary, Handler: r.Handler}, env: r.Env}, nil
}

// command is the hooks command for this request's file.
func (q request) command(verb string) string {
	s := "codeman hooks " + verb + " --agent opencode"
	if q.project {
		s += " --project " + hooks.ShellQuote(strings.TrimSuffix(q.opts.Path, "/.opencode/plugins/"+FileName))
	}
	return s
}

// configDir is the config dir of the request's plugin.
func (q request) configDir() string { return filepath.Dir(filepath.Dir(q.opts.Path)) }

// Install writes codeman's plugin.
func (Installer) Install(w io.Writer, r hooks.Request) error {
	q, err := resolve(r)
	if err != nil {
		return err
	}
	rep, err := Install(q.opts)
	if err != nil {
		return err
	}
	switch {
	case rep.Updated:
		fmt.Fprintf(w, "codeman's OpenCode plugin rewritten in %s (running %s EVENT; it ran %s)\n", rep.Path, q.opts.Command(), shellCommand(rep.Previous))
	case rep.Changed:
		fmt.Fprintf(w, "codeman's OpenCode plugin installed in %s (running %s EVENT)\n", rep.Path, q.opts.Command())
	default:
		fmt.Fprintf(w, "codeman's OpenCode plugin already installed in %s; nothing changed\n", rep.Path)
	}
	hooks.PrintFallback(w, r)
	if st, err := Status(q.opts, q.env, q.also); err == nil {
		printWarnings(w, q, st)
	}
	if rep.Changed {
		fmt.Fprintln(w, restartNote)
	}
	return nil
}

// Uninstall removes codeman's plugin.
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
		fmt.Fprintf(w, "no codeman plugin at %s; nothing changed\n", rep.Path)
		return nil
	}
	fmt.Fprintf(w, "codeman's OpenCode plugin removed from %s\n", rep.Path)
	fmt.Fprintln(w, restartNote)
	return nil
}

// Status shows codeman's plugin, what it runs, and what else decides
// whether OpenCode runs it.
func (Installer) Status(w io.Writer, r hooks.Request) error {
	q, err := resolve(r)
	if err != nil {
		return err
	}
	st, err := Status(q.opts, q.env, q.also)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "plugin: %s", st.Path)
	if !st.Exists {
		fmt.Fprint(w, " (does not exist)")
	}
	fmt.Fprintln(w)
	if p := st.Plugin; p != nil {
		fmt.Fprintf(w, "  runs %s EVENT (executable: %s, this binary: %s)\n", p.Command, hooks.YesNo(p.Executable), hooks.YesNo(p.Current))
	}
	printWarnings(w, q, st)
	fmt.Fprintln(w, "state: "+q.state(st))
	fmt.Fprintln(w, pureNote)
	return nil
}

// printWarnings says what besides the file keeps the plugin from running
// once.
func printWarnings(w io.Writer, q request, st StatusReport) {
	if st.Pure {
		fmt.Fprintln(w, "  but OPENCODE_PURE is set: OpenCode loads no plugin of yours, codeman's included; unset it to turn them on")
	}
	if st.Also != "" {
		fmt.Fprintf(w, "  codeman's plugin is also in %s: OpenCode runs both, so each event reaches codeman twice; keep one install\n", st.Also)
	}
	if st.NoDeps {
		fmt.Fprintf(w, depsNote, q.configDir())
	}
}

// state is Status's last word on st.
func (q request) state(st StatusReport) string {
	switch {
	case st.Plugin == nil:
		return "not installed; run: " + q.command("install")
	case !st.Current:
		return "out of date; run: " + q.command("install")
	case st.Pure:
		return "installed and up to date, but turned off by OPENCODE_PURE (above)"
	}
	return "installed and up to date"
}

// Check reads codeman's plugin of the user's config dir (never a
// project's).
func (Installer) Check(r hooks.Request) []hooks.Finding {
	r.Flags = nil
	q, err := resolve(r)
	if err != nil {
		return []hooks.Finding{findingOf(StatusReport{}, err, r.Binary)}
	}
	st, err := Status(q.opts, q.env, q.also)
	return findings(q, st, err, r.Binary)
}

// findingName is the doctor's name of every OpenCode plugin finding.
const findingName = "hooks (opencode)"

// installPlugin is the fix of most plugin problems.
const installPlugin = "codeman hooks install --agent opencode (then restart the OpenCode sessions that run)"

// findings are Check's verdicts on st: the plugin's, then what else
// decides whether it runs.
func findings(q request, st StatusReport, err error, binary string) []hooks.Finding {
	out := []hooks.Finding{findingOf(st, err, binary)}
	if err != nil {
		return out
	}
	if st.Pure {
		out = append(out, hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: "OPENCODE_PURE is set: OpenCode loads no plugin of yours, so codeman reads OpenCode panes from the screen alone",
			Fix:     "unset OPENCODE_PURE (and start opencode without --pure)"})
	}
	if st.Plugin != nil && st.NoDeps {
		out = append(out, hooks.Finding{Name: findingName, Level: hooks.LevelNote,
			Message: fmt.Sprintf(strings.TrimSpace(strings.TrimSuffix(depsNote, "\n")), q.configDir())})
	}
	return out
}

// findingOf judges codeman's plugin as read into st: installed, and
// running an executable, binary.
func findingOf(st StatusReport, err error, binary string) hooks.Finding {
	switch p := st.Plugin; {
	case err != nil:
		return hooks.Finding{Name: findingName, Level: hooks.LevelError, Message: err.Error(), Fix: "move aside the file it names; codeman hooks status --agent opencode reads it again"}
	case p == nil:
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: "not installed in " + st.Path + ": codeman reads OpenCode panes from the screen alone", Fix: installPlugin}
	case !p.Executable:
		return hooks.Finding{Name: findingName, Level: hooks.LevelError,
			Message: fmt.Sprintf("the plugin in %s runs %s, not an executable: every run fails", st.Path, p.Program),
			Fix:     installPlugin}
	case !p.Current:
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("the plugin in %s runs %s, not this binary (%s)", st.Path, p.Program, binary),
			Fix:     "if this is the codeman you use: " + installPlugin}
	case !st.Current:
		return hooks.Finding{Name: findingName, Level: hooks.LevelWarn,
			Message: fmt.Sprintf("out of date in %s (it runs %s)", st.Path, p.Command), Fix: installPlugin}
	}
	return hooks.Finding{Name: findingName, Level: hooks.LevelOK, Message: "installed in " + st.Path + ", running this binary"}
}
