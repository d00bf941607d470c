package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
)

const paneUsage = "PANE is %3, session:window.pane, tmux:SOCKET:%3 or screen:SESSION[:WINDOW]; default: the pane this runs in"

func attachCommand() *cli.Command {
	return &cli.Command{
		Name:        "attach",
		Usage:       "enable respawn on a pane (starts the daemon when none runs)",
		ArgsUsage:   "[PANE]",
		Description: paneUsage,
		Flags:       []cli.Flag{profileFlag, setFlag, attachAgentFlag},
		Action: func(c *cli.Context) error {
			var st api.PaneStatus
			err := enable(c, true, func(client *api.Client, addr string) (err error) {
				st, err = client.Attach(c.Context, attachRequest(c, addr))
				return err
			})
			if err != nil {
				return err
			}
			return printAttached(c.App.Writer, st)
		},
	}
}

func detachCommand() *cli.Command {
	return &cli.Command{
		Name:        "detach",
		Usage:       "disable respawn on a pane",
		ArgsUsage:   "[PANE]",
		Description: paneUsage,
		Action: func(c *cli.Context) error {
			addr, client, err := paneAndClient(c, false)
			if err != nil {
				return err
			}
			if err := client.Detach(c.Context, addr); err != nil {
				return err
			}
			_, err = fmt.Fprintf(c.App.Writer, "codeman: respawn off for %s\n", addr)
			return err
		},
	}
}

// toggleCommand is what the tmux key binding runs: it prints one short
// line, which the binding shows with display-message. It is one request,
// so a double press ends on or off, never on twice.
func toggleCommand() *cli.Command {
	return &cli.Command{
		Name:        "toggle",
		Usage:       "enable respawn on a pane, or disable it when it is on",
		ArgsUsage:   "[PANE]",
		Description: paneUsage,
		Flags:       []cli.Flag{profileFlag, setFlag, attachAgentFlag},
		Action: func(c *cli.Context) error {
			var res api.ToggleResult
			err := enable(c, false, func(client *api.Client, addr string) (err error) {
				res, err = client.Toggle(c.Context, attachRequest(c, addr))
				return err
			})
			if err != nil {
				return err
			}
			if !res.On {
				_, err = fmt.Fprintln(c.App.Writer, "codeman: respawn off")
				return err
			}
			_, err = fmt.Fprintf(c.App.Writer, "codeman: respawn on (%s, %s)\n", profileLabel(res.Status.Profile), res.Status.Status.State)
			return err
		},
	}
}

func printAttached(w io.Writer, st api.PaneStatus) error {
	_, err := fmt.Fprintf(w, "codeman: respawn on for %s %s\n  agent %s, profile %s, state %s, output via %s, AI checks %s\n",
		safetext.Line(st.Target), safetext.Line(st.Pane), orDash(st.Agent), safetext.Line(profileLabel(st.Profile)), st.Status.State, st.Mode, st.Checker)
	return err
}

func profileLabel(p string) string {
	if p == "" {
		return "default"
	}
	return p
}

var errNoPanes = errors.New("no pane is controlled; enable one with codeman attach")
