package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/hooks"
)

func hooksCommand() *cli.Command {
	return &cli.Command{
		Name:  "hooks",
		Usage: "install, remove or show codeman's hooks in an agent's settings (" + strings.Join(hookLabels(), ", ") + ")",
		Subcommands: []*cli.Command{
			{
				Name:   "install",
				Usage:  "add codeman's hooks to the agent's settings (merged; nothing else changes)",
				Flags:  hookFlags(true),
				Action: hooksAction(hooks.Installer.Install),
			},
			{
				Name:   "uninstall",
				Usage:  "remove codeman's hooks from the agent's settings",
				Flags:  hookFlags(false),
				Action: hooksAction(hooks.Installer.Uninstall),
			},
			{
				Name:   "status",
				Usage:  "show where codeman's hooks are installed and what they run",
				Flags:  hookFlags(false),
				Action: hooksAction(hooks.Installer.Status),
			},
		},
	}
}

// hookAgents are the agents whose hooks codeman installs, the default
// first.
func hookAgents() []agents.Info {
	var list []agents.Info
	for _, a := range agents.List() {
		if a.Hooks != nil {
			list = append(list, a)
		}
	}
	return list
}

func hookLabels() []string {
	var labels []string
	for _, a := range hookAgents() {
		labels = append(labels, a.Label)
	}
	return labels
}

func hookNames() []string {
	var names []string
	for _, a := range hookAgents() {
		names = append(names, a.Name)
	}
	return names
}

// agentFlag is one of an agent's own flags, with the agents that take it
// and what it does for each.
type agentFlag struct {
	hooks.Flag
	agents []string
	usages []string
}

// help is the flag's usage text: the one usage of the agents that take it,
// marked with them when not all do, or each agent's usage, named.
func (f agentFlag) help(all int) string {
	if slices.IndexFunc(f.usages, func(u string) bool { return u != f.usages[0] }) < 0 {
		if len(f.agents) < all {
			return f.usages[0] + " (--agent " + strings.Join(f.agents, ", ") + " only)"
		}
		return f.usages[0]
	}
	parts := make([]string, len(f.agents))
	for i, a := range f.agents {
		u := f.usages[i]
		if i > 0 {
			// The help takes the first backquoted word for the argument's
			// name and would print the later backquotes.
			u = strings.ReplaceAll(u, "`", "")
		}
		parts[i] = "with --agent " + a + ", " + u
	}
	return strings.Join(parts, "; ")
}

// agentFlags are the agents' own flags of a hooks command, in the
// agents' order: install's when install is true.
func agentFlags(install bool) []agentFlag {
	var flags []agentFlag
	for _, a := range hookAgents() {
		for _, f := range a.Hooks.Flags() {
			if f.InstallOnly && !install {
				continue
			}
			i := slices.IndexFunc(flags, func(g agentFlag) bool { return g.Name == f.Name })
			if i < 0 {
				flags = append(flags, agentFlag{Flag: f})
				i = len(flags) - 1
			}
			flags[i].agents = append(flags[i].agents, a.Name)
			flags[i].usages = append(flags[i].usages, f.Usage)
		}
	}
	return flags
}

// hookFlags are --agent and the agents' own flags, each saying what it
// does for the agents it applies to.
func hookFlags(install bool) []cli.Flag {
	names := hookNames()
	flags := []cli.Flag{&cli.StringFlag{
		Name:  "agent",
		Usage: "the agent whose hooks to edit: `AGENT` is " + strings.Join(names, " or "),
		Value: agents.Default,
	}}
	for _, f := range agentFlags(install) {
		usage := f.help(len(names))
		if f.Bool {
			flags = append(flags, &cli.BoolFlag{Name: f.Name, Usage: usage})
		} else {
			flags = append(flags, &cli.StringFlag{Name: f.Name, Usage: usage, TakesFile: true})
		}
	}
	return flags
}

// executable returns this binary's path; tests put it elsewhere.
var executable = os.Executable

// hooksAction runs one hooks command on the agent --agent names.
func hooksAction(run func(hooks.Installer, io.Writer, hooks.Request) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		a, req, err := hookRequest(c)
		if err != nil {
			return err
		}
		return run(a.Hooks, c.App.Writer, req)
	}
}

// hookRequest returns the agent the command is for and what it asks of
// the agent's installer, refusing an unknown agent and another agent's
// flags.
func hookRequest(c *cli.Context) (agents.Info, hooks.Request, error) {
	name := c.String("agent")
	i := slices.IndexFunc(hookAgents(), func(a agents.Info) bool { return a.Name == name })
	if i < 0 {
		return agents.Info{}, hooks.Request{}, fmt.Errorf("unknown agent %q: use one of %s", name, strings.Join(hookNames(), ", "))
	}
	a := hookAgents()[i]
	req := hooks.Request{Env: os.Getenv, Flags: map[string]string{}}
	for _, f := range agentFlags(c.Command.Name == "install") {
		if !c.IsSet(f.Name) {
			continue
		}
		if !slices.Contains(f.agents, a.Name) {
			return a, req, fmt.Errorf("--%s applies to --agent %s only", f.Name, strings.Join(f.agents, ", "))
		}
		req.Flags[f.Name] = c.String(f.Name)
		if f.Bool {
			req.Flags[f.Name] = fmt.Sprint(c.Bool(f.Name))
		}
	}
	bin, err := executable()
	if err != nil {
		return a, req, fmt.Errorf("find codeman binary: %w", err)
	}
	req.Binary, req.Handler = bin, hooks.FindHandler(bin)
	return a, req, nil
}
