package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/doctor"
	"github.com/codeman-dev/codeman/internal/safetext"
)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check tmux, screen, Claude Code, the hooks, dirs, config, daemon and panes; say what is wrong and what to do",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find own binary: %w", err)
			}
			rep := doctor.New(exe, resolveVersion(), os.Getenv, daemon.EnabledPanes).Run(c.Context)
			if c.Bool(jsonFlag.Name) {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else if err := printDoctor(c.App.Writer, rep); err != nil {
				return err
			}
			if rep.Errors > 0 {
				return fmt.Errorf("doctor found %d %s", rep.Errors, plural(rep.Errors, "problem", "problems"))
			}
			return nil
		},
	}
}

// printDoctor prints one line per check: its verdict, what it looked at,
// what it found and what to do.
func printDoctor(w io.Writer, rep doctor.Report) error {
	for _, c := range rep.Checks {
		line := fmt.Sprintf("%-5s  %s: %s", c.Verdict, c.Name, c.Message)
		if c.Fix != "" {
			line += "; try: " + c.Fix
		}
		// Checks quote paths, pane titles and screen text: shown, never run.
		if _, err := fmt.Fprintln(w, safetext.Text(line)); err != nil {
			return err
		}
	}
	if rep.Errors == 0 {
		_, err := fmt.Fprintf(w, "no problems found (%d %s)\n", rep.Warnings, plural(rep.Warnings, "warning", "warnings"))
		return err
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
