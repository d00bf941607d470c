package main

import (
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/hooks"
)

// hookCommand is what Claude Code runs for every hook event when `codeman
// hooks install` found no codeman-hook beside codeman (and what installs
// before codeman-hook wrote): the same handler, in the whole CLI. Claude
// shows a hook's output to the user and reports a non-zero exit as a hook
// error, so this command prints nothing and exits 0 whatever happens. Its
// argument, when given, names the event for payloads that carry no name
// (the GitHub Copilot CLI's: `codeman hook agentStop`).
func hookCommand() *cli.Command {
	return &cli.Command{
		Name:            "hook",
		Usage:           "handle one hook event (run by the agent; reads the event JSON on stdin)",
		ArgsUsage:       "[EVENT]",
		HideHelp:        true,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			now := time.Now()
			// A bug here must not turn into a stack trace on Claude's screen.
			defer func() { _ = recover() }()
			// The error only says why no marker was written (outside a
			// pane, inside an AI check, bad input); there is nobody to tell.
			_, _ = hooks.HandleEvent(c.App.Reader, os.Getenv, now, c.Args().First())
			return nil
		},
	}
}
