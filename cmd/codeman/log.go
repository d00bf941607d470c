package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/history"
	"github.com/codeman-dev/codeman/internal/safetext"
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
			return printHistory(c, dir, pane, from, to)
		},
	}
}

// printHistory prints the records of pane ("" every pane) from from to
// to as they are read, in bounded memory however large the histories,
// then says on stderr how many lines were skipped.
func printHistory(c *cli.Context, dir, pane string, from, to time.Time) error {
	out := bufio.NewWriter(c.App.Writer)
	show, err := logPrinter(out, dir, pane, c.Bool(jsonFlag.Name))
	if err != nil {
		return err
	}
	skipped, err := history.Each(dir, pane, from, func(r history.Record) error {
		if !r.At.Before(to) {
			return nil
		}
		return show(r)
	})
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	reportSkipped(c, dir, skipped)
	return nil
}

// reportSkipped says on stderr how many lines of the histories in dir a
// read passed over, if any.
func reportSkipped(c *cli.Context, dir string, skipped history.Skipped) {
	if skipped.Lines() > 0 {
		fmt.Fprintf(c.App.ErrWriter, "codeman %s: skipped %d %s of the histories in %s: %d longer than %d MiB, %d not records (cut short by a crash, or corrupt)\n",
			c.Command.Name, skipped.Lines(), plural(skipped.Lines(), "line", "lines"), safetext.Line(dir), skipped.Long, history.MaxLine>>20, skipped.Corrupt)
	}
}

// logPrinter returns what prints one record: a JSON line, or for a
// person one line of the time, the pane and what happened. Panes are told
// apart by their server's label when the histories (of pane, when given)
// hold panes of several servers, whichever the window shows: a pane is
// named alike whatever --since says, and nothing is read twice.
func logPrinter(w io.Writer, dir, pane string, asJSON bool) (func(history.Record) error, error) {
	if asJSON {
		enc := json.NewEncoder(w) // escapes every control character: the output stays data
		return func(r history.Record) error { return enc.Encode(r) }, nil
	}
	panes := []string{pane}
	if pane == "" {
		var err error
		if panes, err = history.Panes(dir); err != nil {
			return nil, err
		}
	}
	labels := api.ServerLabels(panes)
	return func(r history.Record) error { return printRecord(w, r, labels) }, nil
}

// printRecord prints one record for a person. The pane's address and
// everything the record says come from panes and agents, so each is shown
// through safetext: a terminal escape in a prompt is printed, not played.
func printRecord(w io.Writer, r history.Record, labels map[string]string) error {
	_, err := fmt.Fprintf(w, "%s  %s  %s\n", r.At.Local().Format(time.DateTime), safetext.Line(paneTarget(r.Pane, labels)), safetext.Line(r.String()))
	return err
}

// paneTarget names a pane as a person does: %3 (with its server's label
// when several servers show up), screen 123.work:0, or the address.
func paneTarget(addr string, labels map[string]string) string {
	if sock := api.TmuxSocket(addr); sock != "" {
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
		dir = api.HistoryDir(os.Getenv)
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
	switch len(match) {
	case 0:
		return "", err
	case 1:
		return match[0], nil
	}
	return "", ambiguousPane(arg, err, match)
}

// ambiguousPane says which panes of the histories arg names, with their
// servers, and how to name one; why is why arg names no pane now.
func ambiguousPane(arg string, why error, match []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s names no pane now (%s) but %d panes in the histories:", safetext.Line(arg), safetext.Line(why.Error()), len(match))
	for _, m := range match {
		fmt.Fprintf(&b, "\n  %s", safetext.Line(m))
		if sock := api.TmuxSocket(m); sock != "" {
			fmt.Fprintf(&b, "  (the tmux server on socket %s)", safetext.Line(sock))
		}
	}
	fmt.Fprintf(&b, "\nname one by its address, as in: codeman log %s", shellQuote(safetext.Line(match[0])))
	return errors.New(b.String())
}

// shellQuote quotes s for a POSIX shell when it holds more than the
// characters that need no quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%+,-./:=@_") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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
