package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// Flags shared by several commands.
var (
	profileFlag     = &cli.StringFlag{Name: "profile", Aliases: []string{"p"}, Usage: "use the named profile (see codeman config print)"}
	setFlag         = &cli.StringSliceFlag{Name: "set", Usage: "override a setting: key=value (e.g. completion_confirm=5s); repeat it for more keys"}
	jsonFlag        = &cli.BoolFlag{Name: "json", Usage: "print JSON"}
	attachAgentFlag = &cli.StringFlag{Name: "agent", Usage: "the coding agent in the pane: " + strings.Join(agents.Names(), ", ") + " or " + agents.Auto + " (recognized; the default); the same as --set agent=NAME"}
)

// connect returns a client of the running daemon, starting one when start
// is set and none runs.
func connect(c *cli.Context, start bool) (*api.Client, api.Paths, error) {
	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		return nil, paths, err
	}
	exe := ""
	if start {
		if exe, err = os.Executable(); err != nil {
			return nil, paths, fmt.Errorf("find own binary: %w", err)
		}
	}
	client, err := api.Connect(c.Context, paths, exe)
	if errors.Is(err, api.ErrNotRunning) {
		return nil, paths, fmt.Errorf("%w\nTry: codeman attach (starts it) or codeman daemon", err)
	}
	return client, paths, err
}

// paneAndClient resolves the PANE argument and connects to the daemon,
// starting it when start is set.
func paneAndClient(c *cli.Context, start bool) (string, *api.Client, error) {
	addr, err := resolvePane(c.Context, c.Args().First())
	if err != nil {
		return "", nil, err
	}
	client, _, err := connect(c, start)
	return addr, client, err
}

// enable sends the request of attach or toggle for the PANE argument,
// which the daemon checks in full: it resolves the pane itself, so a pane
// named by its id (the tmux key binding's, or an address) costs no tmux
// process here, and it applies the profile and --set values itself. The
// request goes to the running daemon, found by its health probe as the
// other commands find it, so that a daemon that is stopped or stuck is
// said so within seconds, while an attach that waits on a busy one's
// adoption may take its time. Only when none runs does this start one
// (after checking the profile and --set values, with check, so that a bad
// one starts none) and send it there: a request that found no daemon
// reached none.
func enable(c *cli.Context, check bool, req func(client *api.Client, addr string) error) error {
	addr, ok := tmux.PaneAddress(c.Args().First(), os.Getenv)
	if !ok {
		var err error
		if addr, err = resolvePane(c.Context, c.Args().First()); err != nil {
			return err
		}
	}
	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		return err
	}
	client, err := api.Connect(c.Context, paths, "")
	if err == nil {
		err = req(client, addr)
	}
	if !errors.Is(err, api.ErrNotRunning) {
		return err
	}
	if check {
		if _, _, err := effectiveConfig(c); err != nil {
			return err
		}
	}
	client, _, err = connect(c, true)
	if err != nil {
		return err
	}
	return req(client, addr)
}

// attachRequest is the request of attach and toggle for addr.
func attachRequest(c *cli.Context, addr string) api.AttachRequest {
	sets := c.StringSlice(setFlag.Name)
	if name := c.String(attachAgentFlag.Name); name != "" {
		// Last, so that it wins over a --set of the same key.
		sets = append(slices.Clone(sets), "agent="+name)
	}
	return api.AttachRequest{Pane: addr, Profile: c.String(profileFlag.Name), Sets: sets}
}

// resolvePane turns a PANE argument into a canonical address: a tmux
// target (%3, work:1.0, tmux:SOCKET:%3), screen:SESSION[:WINDOW], or
// nothing for the caller's own pane or window.
func resolvePane(ctx context.Context, arg string) (string, error) {
	switch {
	case strings.HasPrefix(arg, "screen:"):
		w, err := screen.ResolveTarget(ctx, screen.ExecRunner{}, arg, os.Getenv)
		if err != nil {
			return "", err
		}
		return w.Address(), nil
	case arg == "" && os.Getenv("TMUX_PANE") == "" && os.Getenv("STY") != "":
		w, err := screen.ResolveTarget(ctx, screen.ExecRunner{}, "", os.Getenv)
		if err != nil {
			return "", err
		}
		return w.Address(), nil
	}
	info, err := tmux.Locate(ctx, arg, os.Getenv)
	if err != nil {
		return "", err
	}
	return info.Address(), nil
}

// loadConfig reads the config file (a missing one means the defaults).
func loadConfig() (*config.File, error) {
	return config.Load(config.DefaultPath())
}

// effectiveConfig applies a profile and --set values to the config file.
func effectiveConfig(c *cli.Context) (respawn.Config, *config.File, error) {
	file, err := loadConfig()
	if err != nil {
		return respawn.Config{}, nil, err
	}
	cfg, err := file.Effective(c.String(profileFlag.Name), c.StringSlice(setFlag.Name))
	return cfg, file, err
}

// orDash is a table cell for a value that may be empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
