package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/internal/fakeclaude"
)

// simClaudeCommand runs the simulated Claude Code TUI that the demo and the
// integration tests drive. Hidden: it is a test fixture, not a feature.
func simClaudeCommand() *cli.Command {
	return &cli.Command{
		Name:            "sim-claude",
		Usage:           "run a simulated Claude Code session on this terminal",
		Hidden:          true,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			if code := fakeclaude.Main(c.Args().Slice(), os.Stdin, os.Stdout); code != fakeclaude.ExitOK {
				return cli.Exit("", code)
			}
			return nil
		},
	}
}
