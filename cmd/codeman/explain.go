package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:        "explain",
		Usage:       "show why the controller believes what it believes: evidence, timers, recent decisions",
		ArgsUsage:   "[PANE]",
		Description: paneUsage,
		Flags:       []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			addr, client, err := paneAndClient(c, false)
			if err != nil {
				return err
			}
			st, err := client.Explain(c.Context, addr, 30)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			return printExplain(c.App.Writer, st, time.Now())
		},
	}
}

// printExplain shows a pane's status to a person. Most of it is what the
// pane put on screen, so every such field is one safe line, and the whole
// is cleaned once more before it reaches the terminal.
func printExplain(out io.Writer, p api.PaneStatus, now time.Time) error {
	var w bytes.Buffer
	writeExplain(&w, p, now)
	_, err := io.WriteString(out, safetext.Text(w.String()))
	return err
}

func writeExplain(w io.Writer, p api.PaneStatus, now time.Time) {
	s, ev := p.Status, p.Status.Evidence
	fmt.Fprintf(w, "%s  %s\n", safetext.Line(p.Target), safetext.Line(p.Pane))
	if p.Problem != "" {
		fmt.Fprintf(w, "  not controlled since %s ago: %s\n  (enabled with profile %s; fix the cause, or codeman detach to forget it)\n",
			since(now, p.ProblemAt), safetext.Line(p.Problem), safetext.Line(profileLabel(p.Profile)))
		return
	}
	fmt.Fprintf(w, "  running   %s (agent %s, profile %s, output via %s)\n", safetext.Line(orDash(p.Command)), orDash(p.Agent), safetext.Line(profileLabel(p.Profile)), p.Mode)
	fmt.Fprintf(w, "  state     %s for %s, %d cycle(s)%s\n", s.State, since(now, s.Since), s.Cycles, pausedSuffix(s.Paused))
	if n := s.NeedsYou; n != nil {
		fmt.Fprintf(w, "  NEEDS YOU %s for %s: %s\n", n.Kind, since(now, n.Since), safetext.Line(n.Reason))
		printAsk(w, p.Pane, n)
	}
	if s.Wait != "" {
		fmt.Fprintf(w, "  waiting   %s\n", safetext.Line(s.Wait))
	}
	fmt.Fprintln(w, "evidence")
	fmt.Fprintf(w, "  silence          %s since the last output\n", ev.Silence.Round(100*time.Millisecond))
	if ev.SinceWorking > 0 {
		fmt.Fprintf(w, "  working          last seen %s ago\n", ev.SinceWorking.Round(100*time.Millisecond))
	}
	if ev.Tokens >= 0 {
		fmt.Fprintf(w, "  tokens           %d, unchanged for %s\n", ev.Tokens, ev.TokensStable.Round(time.Second))
	}
	printScreen(w, "screen", ev.ScreenAge, ev.Working, ev.PromptBox, ev.PlanMenu, "", ev.Screen)
	printLiveScreen(w, p.Live, now)
	if ev.Blocker != "" {
		fmt.Fprintf(w, "  blocked          %s\n", safetext.Line(ev.Blocker))
	}
	if ev.BackgroundWait > 0 {
		fmt.Fprintf(w, "  background       %d agent(s) running\n", ev.BackgroundWait)
	}
	hooks := "no hook seen yet (codeman hooks install, then restart Claude)"
	if p.HooksActive {
		hooks = "active"
	}
	fmt.Fprintf(w, "  hooks            %s", hooks)
	if p.LastHook != "" {
		fmt.Fprintf(w, "; last %s %s ago", safetext.Line(p.LastHook), since(now, p.LastHookAt))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  AI checks        %s; idle %s; plan %s\n", p.Checker, gate(s.IdleCheck.Enabled, s.IdleCheck.Disabled, s.IdleCheck.Why, s.IdleCheck.Until, now), gate(s.PlanCheck.Enabled, s.PlanCheck.Disabled, s.PlanCheck.Why, s.PlanCheck.Until, now))
	if len(s.Timers) > 0 {
		fmt.Fprintln(w, "timers")
		for _, t := range s.Timers {
			fmt.Fprintf(w, "  %-20s fires in %s\n", t.Name, t.Remaining.Round(100*time.Millisecond))
		}
	}
	fmt.Fprintln(w, "decisions")
	for _, d := range s.Decisions {
		fmt.Fprintf(w, "  %s  %s\n", d.At.Local().Format("15:04:05"), safetext.Line(d.String()))
	}
}

// printLiveScreen shows the screen as it is now, which may differ from the
// one the controller last read: it reads the screen only to decide.
func printLiveScreen(w io.Writer, l *api.LiveScreen, now time.Time) {
	switch {
	case l == nil:
		return
	case l.Error != "":
		fmt.Fprintf(w, "  screen now       unreadable: %s\n", safetext.Line(l.Error))
		return
	}
	var also []string
	for _, f := range []struct {
		on   bool
		name string
	}{{l.Completion, "completion line"}, {l.Question, "question"}, {l.Permission, "permission prompt"}, {l.Dialog, "dialog"}} {
		if f.on {
			also = append(also, f.name)
		}
	}
	if l.Input != "" {
		also = append(also, fmt.Sprintf("input %q", clip(l.Input, 40)))
	}
	extra := ""
	if len(also) > 0 {
		extra = "; " + strings.Join(also, ", ")
	}
	printScreen(w, "screen now", max(now.Sub(l.At), 0), l.Working, l.PromptBox, l.PlanMenu, extra, l.Evidence)
}

// printScreen prints what the screen patterns made of a screen read age ago.
func printScreen(w io.Writer, label string, age time.Duration, working, box, plan bool, extra string, evidence []string) {
	fmt.Fprintf(w, "  %-16s read %s ago: working=%t prompt box=%t plan menu=%t%s\n",
		label, age.Round(100*time.Millisecond), working, box, plan, extra)
	for _, e := range evidence {
		fmt.Fprintf(w, "                   %s\n", clip(e, 100))
	}
}

func gate(enabled bool, disabled, why string, until, now time.Time) string {
	switch {
	case !enabled:
		return "off"
	case disabled != "":
		return "disabled (" + disabled + ")"
	case !until.IsZero():
		return fmt.Sprintf("%s for %s", why, until.Sub(now).Round(time.Second))
	}
	return "ready"
}

func pausedSuffix(p bool) string {
	if p {
		return ", paused"
	}
	return ""
}
