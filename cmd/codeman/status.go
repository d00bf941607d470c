package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:        "status",
		Usage:       "show every controlled pane: state, cycles, last decision",
		ArgsUsage:   "[PANE]",
		Description: paneUsage + " (status without PANE lists every pane)",
		Flags:       []cli.Flag{jsonFlag, &cli.BoolFlag{Name: "watch", Aliases: []string{"w"}, Usage: "stream decisions as they happen"}},
		Action: func(c *cli.Context) error {
			client, _, err := connect(c, false)
			if err != nil {
				return err
			}
			addr := ""
			if c.Args().Present() {
				if addr, err = resolvePane(c.Context, c.Args().First()); err != nil {
					return err
				}
			}
			if c.Bool("watch") {
				return watch(c, client, addr)
			}
			var panes []api.PaneStatus
			if addr != "" {
				st, err := client.Pane(c.Context, addr, 1)
				if err != nil {
					return err
				}
				panes = []api.PaneStatus{st}
			} else if panes, err = client.Panes(c.Context); err != nil {
				return err
			}
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(api.StatusReport{V: api.Schema, Panes: panes})
			}
			if len(panes) == 0 {
				return errNoPanes
			}
			return printStatusTable(c.App.Writer, panes, time.Now())
		},
	}
}

// commandLabel is the pane's program, with the agent codeman reads it as
// when the program's name does not say it: "node [codex]".
func commandLabel(p api.PaneStatus) string {
	switch {
	case p.Agent == "" || p.Agent == p.Command:
		return orDash(p.Command)
	case p.Command == "":
		return "[" + p.Agent + "]"
	}
	return p.Command + " [" + p.Agent + "]"
}

func printStatusTable(w io.Writer, panes []api.PaneStatus, now time.Time) error {
	addrs := make([]string, len(panes))
	for i, p := range panes {
		addrs[i] = p.Pane
	}
	servers := api.ServerLabels(addrs)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PANE\tCOMMAND\tSTATE\tCYCLES\tLAST HOOK\tLAST DECISION\tAGE")
	for _, p := range panes {
		target := safetext.Line(p.Target)
		if label := servers[api.TmuxSocket(p.Pane)]; label != "" {
			target = safetext.Line(label) + " " + target
		}
		if p.Problem != "" {
			fmt.Fprintf(tw, "%s\t-\tnot controlled\t-\t-\t%s\t%s\n", target, clip(p.Problem, 70), since(now, p.ProblemAt))
			continue
		}
		last, age := "-", "-"
		if n := len(p.Status.Decisions); n > 0 {
			d := p.Status.Decisions[n-1]
			last, age = clip(d.String(), 70), since(now, d.At)
		}
		if n := p.Status.NeedsYou; n != nil {
			// What the person is needed for says more than the last decision.
			last, age = clip(n.Reason, 70), since(now, n.Since)
		}
		state := p.Status.Line
		if state == "" {
			state = p.Status.State
		}
		hook := "-"
		switch {
		case p.LastHook != "":
			hook = safetext.Line(p.LastHook) + " " + since(now, p.LastHookAt)
		case !p.HooksActive:
			hook = "none yet"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", target, safetext.Line(commandLabel(p)), safetext.Line(state), p.Status.Cycles, hook, last, age)
	}
	return tw.Flush()
}

// watch streams decisions, one line each, until interrupted.
func watch(c *cli.Context, client *api.Client, addr string) error {
	asJSON := c.Bool("json")
	enc := json.NewEncoder(c.App.Writer)
	return client.Events(c.Context, addr, func(e api.Event) error {
		if asJSON {
			return enc.Encode(e)
		}
		what := e.Kind + ": " + e.Reason
		if e.Decision != nil {
			what = e.Decision.String()
		}
		_, err := fmt.Fprintf(c.App.Writer, "%s  %s  %s\n", e.At.Local().Format("15:04:05"), safetext.Line(e.Pane), safetext.Line(what))
		return err
	})
}

// since is how long ago t was, as every command shows it.
func since(now, t time.Time) string { return api.Age(now, t) }

// clip shows pane-controlled text on one line of at most n characters.
func clip(s string, n int) string {
	s = safetext.Line(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
