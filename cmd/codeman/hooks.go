package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/hooks/codex"
)

// restartNote ends every hooks command's output.
const restartNote = "Claude Code sessions started before a hooks change may have to be restarted to load it."

// codexRestartNote ends every Codex hooks command's output.
const codexRestartNote = "Codex sessions started before a hooks change have to be restarted to load it."

// The agents whose hooks codeman installs.
const (
	agentClaude = "claude"
	agentCodex  = "codex"
)

var hookAgents = []string{agentClaude, agentCodex}

func hooksCommand() *cli.Command {
	return &cli.Command{
		Name:  "hooks",
		Usage: "install, remove or show codeman's Claude Code or Codex hooks",
		Subcommands: []*cli.Command{
			{
				Name:   "install",
				Usage:  "add codeman's hooks to the agent's settings (merged; nothing else changes)",
				Flags:  []cli.Flag{agentFlag(), projectFlag(), noTrustFlag()},
				Action: hooksInstall,
			},
			{
				Name:   "uninstall",
				Usage:  "remove codeman's hooks from the agent's settings",
				Flags:  []cli.Flag{agentFlag(), projectFlag()},
				Action: hooksUninstall,
			},
			{
				Name:   "status",
				Usage:  "show where codeman's hooks are installed and what they run",
				Flags:  []cli.Flag{agentFlag(), projectFlag()},
				Action: hooksStatus,
			},
		},
	}
}

func agentFlag() cli.Flag {
	return &cli.StringFlag{
		Name:  "agent",
		Usage: "the agent whose hooks to edit: `AGENT` is " + strings.Join(hookAgents, " or "),
		Value: agentClaude,
	}
}

func projectFlag() cli.Flag {
	return &cli.StringFlag{
		Name:      "project",
		Usage:     "use `DIR`/.claude/settings.local.json instead of the user settings (Claude Code only)",
		TakesFile: true,
	}
}

func noTrustFlag() cli.Flag {
	return &cli.BoolFlag{
		Name:  "no-trust",
		Usage: "Codex only: do not mark the hooks trusted in config.toml; Codex asks you to review them",
	}
}

// agentOf returns the agent the command is for, refusing an unknown one
// and the flags of the other agent.
func agentOf(c *cli.Context) (string, error) {
	agent := c.String("agent")
	switch agent {
	case agentClaude:
		if c.Bool("no-trust") {
			return "", fmt.Errorf("--no-trust applies to --agent %s only", agentCodex)
		}
	case agentCodex:
		if c.String("project") != "" {
			return "", fmt.Errorf("--project applies to --agent %s only", agentClaude)
		}
	default:
		return "", fmt.Errorf("unknown agent %q: use one of %s", agent, strings.Join(hookAgents, ", "))
	}
	return agent, nil
}

// executable returns this binary's path; tests put it elsewhere.
var executable = os.Executable

// installOptions names the settings file, this binary and the codeman-hook
// beside it, when there is one.
func installOptions(c *cli.Context) (hooks.InstallOptions, error) {
	path, err := hooks.SettingsPath(os.Getenv, c.String("project"))
	if err != nil {
		return hooks.InstallOptions{}, err
	}
	bin, err := executable()
	if err != nil {
		return hooks.InstallOptions{}, fmt.Errorf("find codeman binary: %w", err)
	}
	return hooks.InstallOptions{SettingsPath: path, Binary: bin, Handler: hooks.FindHandler(bin)}, nil
}

func hooksInstall(c *cli.Context) error {
	agent, err := agentOf(c)
	if err != nil {
		return err
	}
	if agent == agentCodex {
		return codexInstall(c)
	}
	opts, err := installOptions(c)
	if err != nil {
		return err
	}
	rep, err := hooks.Install(opts)
	if err != nil {
		return err
	}
	w := c.App.Writer
	if !rep.Changed {
		fmt.Fprintf(w, "codeman hooks already installed in %s; nothing changed\n", rep.SettingsPath)
		printFallback(w, opts)
		return nil
	}
	fmt.Fprintf(w, "codeman hooks installed in %s (running %s)\n", rep.SettingsPath, opts.Command())
	printEntries(w, "added", rep.Added)
	printEntries(w, "updated", rep.Updated)
	printEntries(w, "removed", rep.Removed)
	printBackup(w, rep.Backup)
	printFallback(w, opts)
	fmt.Fprintln(w, restartNote)
	return nil
}

// printFallback says when the hooks run `codeman hook` for want of
// codeman-hook, and how to get it.
func printFallback(w io.Writer, opts hooks.InstallOptions) {
	if opts.Handler != "" {
		return
	}
	fmt.Fprintf(w, "  no %s beside %s, so the hooks run `codeman hook`, which starts slower;\n", hooks.HandlerName, opts.Binary)
	fmt.Fprintf(w, "  put it there (go install %s@latest does, beside a codeman installed so) and run codeman hooks install again\n", handlerPackage)
}

// handlerPackage is the package of codeman-hook.
const handlerPackage = "github.com/codeman-dev/codeman/cmd/codeman-hook"

func hooksUninstall(c *cli.Context) error {
	agent, err := agentOf(c)
	if err != nil {
		return err
	}
	if agent == agentCodex {
		return codexUninstall(c)
	}
	opts, err := installOptions(c)
	if err != nil {
		return err
	}
	rep, err := hooks.Uninstall(opts)
	if err != nil {
		return err
	}
	w := c.App.Writer
	if !rep.Changed {
		fmt.Fprintf(w, "no codeman hooks in %s; nothing changed\n", rep.SettingsPath)
		return nil
	}
	fmt.Fprintf(w, "codeman hooks removed from %s\n", rep.SettingsPath)
	printEntries(w, "removed", rep.Removed)
	printBackup(w, rep.Backup)
	fmt.Fprintln(w, restartNote)
	return nil
}

func hooksStatus(c *cli.Context) error {
	agent, err := agentOf(c)
	if err != nil {
		return err
	}
	if agent == agentCodex {
		return codexStatus(c)
	}
	opts, err := installOptions(c)
	if err != nil {
		return err
	}
	st, err := hooks.Status(opts)
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintf(w, "settings: %s", st.SettingsPath)
	if !st.Exists {
		fmt.Fprint(w, " (does not exist)")
	}
	fmt.Fprintln(w)
	if len(st.Installed) > 0 {
		printInstalled(w, st.Installed)
	}
	printEntries(w, "missing", st.Missing)
	printEntries(w, "outdated", st.Outdated)
	printEntries(w, "copies", st.Copies)
	switch {
	case st.UpToDate():
		fmt.Fprintln(w, "state: installed and up to date")
	case len(st.Installed) == 0:
		fmt.Fprintln(w, "state: not installed; run: codeman hooks install")
	case len(st.Copies) > 0:
		fmt.Fprintf(w, "state: installed, and %s of codeman's hooks run as well; run: codeman hooks install to keep one of each, or codeman hooks uninstall\n", copiesCount(st.Copies))
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Event, orDash(e.Matcher), e.Program, yesNo(e.Executable), yesNo(e.Current))
	}
	tw.Flush()
}

func printEntries(w io.Writer, label string, entries []hooks.Entry) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s: %s\n", label, hooks.EntryList(entries))
}

// copiesCount says how many copies there are.
func copiesCount(copies []hooks.Entry) string {
	if len(copies) == 1 {
		return "1 copy"
	}
	return fmt.Sprintf("%d copies", len(copies))
}

// disabledBy names the line of config.toml that disables a handler.
func disabledBy(configPath string, line int) string {
	if line == 0 {
		return configPath + " sets enabled = false for it"
	}
	return fmt.Sprintf("%s:%d sets enabled = false", configPath, line)
}

// countTrust counts the handlers in any of the trust states.
func countTrust(st codex.StatusReport, states ...string) int {
	n := 0
	for _, h := range st.Handlers {
		if slices.Contains(states, h.Trust) {
			n++
		}
	}
	return n
}

func printBackup(w io.Writer, backup string) {
	if backup != "" {
		fmt.Fprintf(w, "  previous file kept as %s\n", backup)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// codexOptions names the Codex home, this binary and the codeman-hook
// beside it, when there is one.
func codexOptions(c *cli.Context) (codex.Options, error) {
	home, err := codex.Home(os.Getenv)
	if err != nil {
		return codex.Options{}, err
	}
	bin, err := executable()
	if err != nil {
		return codex.Options{}, fmt.Errorf("find codeman binary: %w", err)
	}
	return codex.Options{Home: home, Binary: bin, Handler: hooks.FindHandler(bin), NoTrust: c.Bool("no-trust")}, nil
}

func codexInstall(c *cli.Context) error {
	opts, err := codexOptions(c)
	if err != nil {
		return err
	}
	rep, err := codex.Install(opts)
	if err != nil {
		return err
	}
	w := c.App.Writer
	if rep.Changed {
		fmt.Fprintf(w, "codeman hooks installed in %s (running %s)\n", rep.SettingsPath, opts.Command())
		printEntries(w, "added", rep.Added)
		printEntries(w, "updated", rep.Updated)
		printEntries(w, "removed", rep.Removed)
		printBackup(w, rep.Backup)
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
	printFallback(w, hooks.InstallOptions{Binary: opts.Binary, Handler: opts.Handler})
	if rep.Changed || rep.ConfigChanged {
		fmt.Fprintln(w, codexRestartNote)
	}
	return nil
}

func codexUninstall(c *cli.Context) error {
	opts, err := codexOptions(c)
	if err != nil {
		return err
	}
	rep, err := codex.Uninstall(opts)
	if err != nil {
		return err
	}
	w := c.App.Writer
	if !rep.Changed && !rep.ConfigChanged {
		fmt.Fprintf(w, "no codeman hooks in %s; nothing changed\n", rep.SettingsPath)
		return nil
	}
	fmt.Fprintf(w, "codeman hooks removed from %s\n", rep.SettingsPath)
	printEntries(w, "removed", rep.Removed)
	printBackup(w, rep.Backup)
	if rep.ConfigChanged {
		fmt.Fprintf(w, "  trust removed from %s: %d entries\n", rep.ConfigPath, len(rep.Untrusted))
	}
	fmt.Fprintln(w, codexRestartNote)
	return nil
}

func codexStatus(c *cli.Context) error {
	opts, err := codexOptions(c)
	if err != nil {
		return err
	}
	st, err := codex.Status(opts)
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintf(w, "hooks: %s", st.SettingsPath)
	if !st.Exists {
		fmt.Fprint(w, " (does not exist)")
	}
	fmt.Fprintf(w, "\ntrust: %s\n", st.ConfigPath)
	if len(st.Handlers) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EVENT\tPROGRAM\tEXECUTABLE\tTHIS BINARY\tTRUST")
		for _, h := range st.Handlers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.Event, h.Program, yesNo(h.Executable), yesNo(h.Current), h.Trust)
		}
		tw.Flush()
	}
	printEntries(w, "missing", st.Missing)
	printEntries(w, "outdated", st.Outdated)
	printEntries(w, "copies", st.Copies)
	disabled := st.Disabled()
	for _, h := range disabled {
		fmt.Fprintf(w, "  disabled: %s (%s)\n", h.Event, disabledBy(st.ConfigPath, h.Line))
	}
	switch {
	case st.UpToDate():
		fmt.Fprintln(w, "state: installed, up to date and trusted")
	case len(st.Installed) == 0:
		fmt.Fprintln(w, "state: not installed; run: codeman hooks install --agent codex")
	case len(st.Copies) > 0:
		fmt.Fprintf(w, "state: installed, and %s of codeman's hooks run as well; run: codeman hooks install --agent codex to keep one of each, or codeman hooks uninstall --agent codex\n", copiesCount(st.Copies))
	case st.StatusReport.UpToDate() && len(disabled) > 0 && countTrust(st, codex.TrustTrusted, codex.TrustDisabled) == len(st.Handlers):
		fmt.Fprintf(w, "state: installed and trusted, but %d disabled in %s, which Codex does not run: remove the enabled = false line named above (codeman leaves it to you), or enable them in Codex's /hooks\n",
			len(disabled), st.ConfigPath)
	case st.StatusReport.UpToDate():
		fmt.Fprintln(w, "state: installed but not all trusted; run: codeman hooks install --agent codex, or trust them in Codex's /hooks")
	default:
		fmt.Fprintln(w, "state: out of date; run: codeman hooks install --agent codex")
	}
	fmt.Fprintln(w, codexRestartNote)
	return nil
}
