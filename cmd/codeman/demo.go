package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/demo"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "watch codeman cycle a simulated Claude Code session on a private tmux server",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "keep", Usage: "keep watching after the first cycle (Ctrl-C ends)"},
			&cli.DurationFlag{Name: "timeout", Value: 3 * time.Minute, Usage: "give up when no cycle is complete after this long"},
			&cli.StringFlag{Name: "agent", Value: "claude", Usage: "the agent the simulated session looks like: " + demoAgents()},
		},
		Action: func(c *cli.Context) error {
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find own binary: %w", err)
			}
			return demo.Run(c.Context, demo.Options{Exe: exe, Out: c.App.Writer, Timeout: c.Duration("timeout"), Keep: c.Bool("keep"), Agent: c.String("agent")})
		},
	}
}

// demoAgents names the agents the simulated session can play.
func demoAgents() string {
	var names []string
	for _, a := range agents.List() {
		if a.Sim.Look != "" {
			names = append(names, a.Name)
		}
	}
	return strings.Join(names, ", ")
}
