package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/daemon/history"
)

// Flags of the commands that read the pane histories (log, report).
var (
	historyFlag = &cli.StringFlag{Name: "history", Usage: "read the histories in `DIR` (default: $XDG_STATE_HOME/codeman/history)"}
	untilFlag   = &cli.StringFlag{Name: "until", Usage: "up to `WHEN`: a duration before now (2h, 3d) or a time (2026-12-01, 2026-12-01 15:04, RFC 3339); default now"}
)

func sinceFlag(def string) *cli.StringFlag {
	return &cli.StringFlag{Name: "since", Value: def, Usage: "from `WHEN`: a duration before now (8h, 3d) or a time (2026-12-01, 2026-12-01 15:04, RFC 3339)"}
}

func logCommand() *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "print the decisions and events kept in the pane histories (no daemon needed)",
		ArgsUsage: "[PANE]",
		Description: paneUsage + "; a pane that is gone may be named by its address or its id (%3). " +
			"Without PANE: every pane.",
		Flags: []cli.Flag{sinceFlag("8h"), untilFlag, historyFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			dir, from, to, err := historyWindow(c, time.Now())
			if err != nil {
				return err
			}
			pane, err := historyPane(c, dir)
			if err != nil {
				return err
			}
			recs, err := history.Read(dir, pane, from)
			if err != nil {
				return err
			}
			recs = slices.DeleteFunc(recs, func(r history.Record) bool { return !r.At.Before(to) })
			if c.Bool(jsonFlag.Name) {
				enc := json.NewEncoder(c.App.Writer)
				for _, r := range recs {
					if err := enc.Encode(r); err != nil {
						return err
					}
				}
				return nil
			}
			return printLog(c.App.Writer, recs)
		},
	}
}

// printLog prints one line per record: the time, the pane, what happened.
func printLog(w io.Writer, recs []history.Record) error {
	addrs := make([]string, len(recs))
	for i, r := range recs {
		addrs[i] = r.Pane
	}
	labels := daemon.ServerLabels(addrs)
	for _, r := range recs {
		if _, err := fmt.Fprintf(w, "%s  %s  %s\n", r.At.Local().Format(time.DateTime), paneTarget(r.Pane, labels), r); err != nil {
			return err
		}
	}
	return nil
}

// paneTarget names a pane as a person does: %3 (with its server's label
// when several servers show up), screen 123.work:0, or the address.
func paneTarget(addr string, labels map[string]string) string {
	if sock := daemon.TmuxSocket(addr); sock != "" {
		id := addr[len("tmux:"+sock+":"):]
		if l := labels[sock]; l != "" {
			return l + " " + id
		}
		return id
	}
	if w, ok := strings.CutPrefix(addr, "screen:"); ok {
		return "screen " + w
	}
	return addr
}

// historyWindow reads --history, --since and --until.
func historyWindow(c *cli.Context, now time.Time) (dir string, from, to time.Time, err error) {
	dir = c.String(historyFlag.Name)
	if dir == "" {
		dir = daemon.HistoryDir(os.Getenv)
	}
	if from, err = parseWhen(c.String("since"), now); err != nil {
		return "", from, to, fmt.Errorf("--since: %w", err)
	}
	to = now
	if s := c.String(untilFlag.Name); s != "" {
		if to, err = parseWhen(s, now); err != nil {
			return "", from, to, fmt.Errorf("--until: %w", err)
		}
	}
	if !from.Before(to) {
		return "", from, to, fmt.Errorf("--since %s is not before --until %s", from.Format(time.DateTime), to.Format(time.DateTime))
	}
	return filepath.Clean(dir), from, to, nil
}

// parseWhen reads a time as a duration before now (Go's, or whole days
// such as 3d) or as a date, a date and time in the local zone, or RFC 3339.
func parseWhen(s string, now time.Time) (time.Time, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{time.DateOnly, "2006-01-02 15:04", time.DateTime} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (8h, 3d) nor a time (2026-12-01 15:04)", s)
}

// historyPane resolves the PANE argument as attach does; a pane that is
// gone is found among the histories by its address or its id. "" (no
// argument) means every pane.
func historyPane(c *cli.Context, dir string) (string, error) {
	arg := c.Args().First()
	if arg == "" {
		return "", nil
	}
	addr, err := resolvePane(c.Context, arg)
	if err == nil {
		return addr, nil
	}
	panes, lerr := history.Panes(dir)
	if lerr != nil {
		return "", lerr
	}
	var match []string
	for _, p := range panes {
		if historyMatch(p, arg) {
			match = append(match, p)
		}
	}
	if len(match) == 1 {
		return match[0], nil
	}
	return "", err
}

// historyMatch reports whether arg names the pane at addr without asking
// tmux or screen: the address itself, a tmux pane id (%3), or a screen
// window by its session name (screen:work:0 for screen:123.work:0).
func historyMatch(addr, arg string) bool {
	switch {
	case addr == arg:
		return true
	case strings.HasPrefix(arg, "%"):
		return strings.HasPrefix(addr, "tmux:") && strings.HasSuffix(addr, ":"+arg)
	}
	name, ok := strings.CutPrefix(arg, "screen:")
	rest, isScreen := strings.CutPrefix(addr, "screen:")
	_, window, found := strings.Cut(rest, ".")
	return ok && isScreen && found && window == name
}
