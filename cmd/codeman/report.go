package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/history"
	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/respawn"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "digest the pane histories: cycles, where the time went, sends, holds and warnings per pane (no daemon needed)",
		Description: "Time is working (Claude works, or runs a cycle's steps), idle, waiting on limits, needing a person, or not " +
			"controlled; package history says how each record counts.",
		Flags: []cli.Flag{sinceFlag("12h"), untilFlag, historyFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			dir, from, to, err := historyWindow(c, time.Now())
			if err != nil {
				return err
			}
			// Everything kept, streamed: where a pane stood at from lies
			// in the records before it.
			digests, skipped, err := history.ReportDir(dir, from, to)
			if err != nil {
				return err
			}
			reportSkipped(c, dir, skipped)
			if c.Bool(jsonFlag.Name) {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(append([]history.Digest{}, digests...))
			}
			if len(digests) == 0 {
				_, err := fmt.Fprintf(c.App.Writer, "no pane history from %s to %s in %s\n", from.Format(time.DateTime), to.Format(time.DateTime), dir)
				return err
			}
			return printReport(c.App.Writer, digests)
		},
	}
}

func printReport(w io.Writer, digests []history.Digest) error {
	var b strings.Builder
	for i, d := range digests {
		if i > 0 {
			b.WriteByte('\n')
		}
		span := d.To.Sub(d.From)
		if target := paneTarget(d.Pane, nil); target != d.Pane {
			fmt.Fprintf(&b, "%s  %s\n", safetext.Line(target), safetext.Line(d.Pane))
		} else {
			fmt.Fprintln(&b, safetext.Line(d.Pane))
		}
		fmt.Fprintf(&b, "  span      %s to %s (%s)\n", d.From.Local().Format(time.DateTime), d.To.Local().Format(time.DateTime), roundDuration(span))
		fmt.Fprintf(&b, "  cycles    %d completed, %d started\n", d.Cycles.Completed, d.Cycles.Started)
		fmt.Fprintf(&b, "  time      %s\n", timeShares(d.Time, span))
		fmt.Fprintf(&b, "  sends     %s\n", sendCounts(d.Sends))
		writeTally(&b, "holds", d.Holds)
		writeTally(&b, "warnings", d.Warnings)
		if len(d.NeedsYou) > 0 {
			fmt.Fprintf(&b, "  needs you %s\n", counts(d.NeedsYou))
		}
		if d.Other > 0 {
			fmt.Fprintf(&b, "  other     %d records of kinds this codeman does not read\n", d.Other)
		}
	}
	_, err := io.WriteString(w, safetext.Text(b.String()))
	return err
}

func timeShares(t history.Times, span time.Duration) string {
	parts := []struct {
		name string
		d    time.Duration
	}{{"working", t.Working}, {"idle", t.Idle}, {"waiting on limits", t.Limits}, {"needing a person", t.Person}, {"not controlled", t.NotControlled}}
	var out []string
	for _, p := range parts {
		share := 0
		if span > 0 {
			share = int(100 * p.d / span)
		}
		out = append(out, fmt.Sprintf("%s %s (%d%%)", p.name, roundDuration(p.d), share))
	}
	return strings.Join(out, ", ")
}

// roundDuration keeps seconds under an hour and minutes above (2h18m).
func roundDuration(d time.Duration) string {
	if d >= time.Hour {
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	}
	return d.Round(time.Second).String()
}

// sendCounts lists sends in the order a cycle types them, any other step
// after.
func sendCounts(sends map[respawn.Step]int) string {
	order := []respawn.Step{respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart, respawn.StepAutoAccept, respawn.StepResume}
	var others []respawn.Step
	for s := range sends {
		if !slices.Contains(order, s) {
			others = append(others, s)
		}
	}
	slices.Sort(others)
	var out []string
	for _, s := range append(order, others...) {
		if n := sends[s]; n > 0 {
			out = append(out, fmt.Sprintf("%s %d", s, n))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func writeTally(b *strings.Builder, name string, t history.Tally) {
	fmt.Fprintf(b, "  %-9s %d\n", name, t.Count)
	for _, r := range t.Top {
		fmt.Fprintf(b, "  %9s %5d× %s\n", "", r.Count, clip(r.Reason, 100))
	}
}

func counts(m map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(out, ", ")
}
