package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/dash"
)

func dashCommand() *cli.Command {
	return &cli.Command{
		Name:  "dash",
		Usage: "full-screen view of every enabled pane, live: jump to one, explain, pause, detach",
		Description: "Keys: Enter goes to the pane, e explains it, p pauses or resumes it, d detaches it, / filters, ? help, q quits.\n" +
			"Inside tmux, Enter switches the client that shows the dash (or --client) to the pane. NO_COLOR draws plain text.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "client", Usage: "the tmux client that Enter switches (default: the one that shows the dash when Enter is pressed)"},
			&cli.BoolFlag{Name: "popup", Usage: "quit after Enter took the client to a pane, as the plugin's popup does"},
		},
		Action: func(c *cli.Context) error {
			paths, err := api.DefaultPaths(os.Getenv)
			if err != nil {
				return err
			}
			// A daemon not running yet is waited for: the dash reconnects.
			client, err := api.Connect(c.Context, paths, "")
			if errors.Is(err, api.ErrNotRunning) {
				client, err = api.NewClient(paths.Socket), nil
			}
			if err != nil {
				return err
			}
			opts := dash.Options{
				Source: client, QuitAfterJump: c.Bool("popup"), Color: os.Getenv("NO_COLOR") == "",
				ExplainText: func(st api.PaneStatus, now time.Time) string {
					var b strings.Builder
					printExplain(&b, st, now)
					return b.String()
				},
			}
			// The client is found at each Enter, unless named: one may
			// attach to the dash's session after it started.
			if opts.Here, err = dash.Locate(os.Getenv); err != nil {
				return fmt.Errorf("find the tmux server this runs in: %w", err)
			}
			if opts.Client = c.String("client"); opts.Client != "" && opts.Here.Socket == "" {
				return fmt.Errorf("--client %s: the dash is %s, so no tmux server is known to have that client; run codeman dash inside tmux, or without --client",
					opts.Client, opts.Here.Outside)
			}
			return dash.Run(c.Context, opts)
		},
	}
}
