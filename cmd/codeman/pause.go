package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func pauseCommand() *cli.Command {
	return &cli.Command{
		Name:        "pause",
		Usage:       "stop typing into a controlled pane until codeman resume; it stays controlled",
		ArgsUsage:   "[PANE]",
		Description: paneUsage,
		Action:      func(c *cli.Context) error { return setPaused(c, true) },
	}
}

func resumeCommand() *cli.Command {
	return &cli.Command{
		Name:        "resume",
		Usage:       "let codeman type into a paused pane again",
		ArgsUsage:   "[PANE]",
		Description: paneUsage,
		Action:      func(c *cli.Context) error { return setPaused(c, false) },
	}
}

func setPaused(c *cli.Context, paused bool) error {
	addr, client, err := paneAndClient(c, false)
	if err != nil {
		return err
	}
	st, err := client.Pause(c.Context, addr, paused)
	if err != nil {
		return err
	}
	if paused {
		_, err = fmt.Fprintf(c.App.Writer, "codeman: paused %s; nothing is typed into it until codeman resume\n", st.Target)
		return err
	}
	_, err = fmt.Fprintf(c.App.Writer, "codeman: resumed %s (%s)\n", st.Target, st.Status.State)
	return err
}
