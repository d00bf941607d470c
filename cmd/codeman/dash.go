package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/daemon/dash"
)

func dashCommand() *cli.Command {
	return &cli.Command{
		Name:  "dash",
		Usage: "full-screen view of every enabled pane, live: jump to one, explain, pause, detach",
		Description: "Keys: Enter goes to the pane, e explains it, p pauses or resumes it, d detaches it, / filters, ? help, q quits.\n" +
			"Inside tmux, Enter switches the client the dash runs in (or --client) to the pane. NO_COLOR draws plain text.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "client", Usage: "the tmux client that Enter switches (default: the one this runs in)"},
			&cli.BoolFlag{Name: "popup", Usage: "quit after Enter took the client to a pane, as the plugin's popup does"},
		},
		Action: func(c *cli.Context) error {
			paths, err := daemon.DefaultPaths(os.Getenv)
			if err != nil {
				return err
			}
			// A daemon not running yet is waited for: the dash reconnects.
			client, err := daemon.Connect(c.Context, paths, "")
			if errors.Is(err, daemon.ErrNotRunning) {
				client, err = daemon.NewClient(paths.Socket), nil
			}
			if err != nil {
				return err
			}
			opts := dash.Options{
				Source: client, QuitAfterJump: c.Bool("popup"), Color: os.Getenv("NO_COLOR") == "",
				ExplainText: func(st daemon.PaneStatus, now time.Time) string {
					var b strings.Builder
					printExplain(&b, st, now)
					return b.String()
				},
			}
			if name := c.String("client"); name != "" {
				opts.Client = name
				if opts.ClientSocket, err = dash.ClientSocket(os.Getenv); err != nil {
					return fmt.Errorf("find the server of client %s: %w", name, err)
				}
			} else if opts.Client, opts.ClientSocket, err = dash.CurrentClient(c.Context, os.Getenv); err != nil {
				return fmt.Errorf("find the tmux client this runs in: %w", err)
			}
			return dash.Run(c.Context, opts)
		},
	}
}
