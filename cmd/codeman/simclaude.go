package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/internal/simclaude"
)

// simClaudeCommand runs the simulated Claude Code session (package
// simclaude) on this terminal, or with --look codex the simulated Codex
// one: `codeman demo` runs it in the pane it cycles, and the load tests
// run it in theirs. Hidden: nobody runs it by hand.
func simClaudeCommand() *cli.Command {
	return &cli.Command{
		Name:            "sim-claude",
		Usage:           "run a simulated Claude Code (or, with --look codex, Codex) session on this terminal",
		Hidden:          true,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			if code := simclaude.Main(c.Args().Slice(), os.Stdin, os.Stdout); code != simclaude.ExitOK {
				return cli.Exit("", code)
			}
			return nil
		},
	}
}
