package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/notify"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "check or print the configuration",
		Subcommands: []*cli.Command{
			{
				Name:      "check",
				Usage:     "validate a config file (default: " + config.DefaultPath() + ")",
				ArgsUsage: "[FILE]",
				Action: func(c *cli.Context) error {
					path := c.Args().First()
					if path == "" {
						path = config.DefaultPath()
					}
					file, err := config.Load(path) // compiles the user's patterns too
					if err != nil {
						return err
					}
					_, err = fmt.Fprintf(c.App.Writer, "%s: ok (%d profiles, %d user patterns)\n", path, len(file.ProfileNames()), len(file.Patterns))
					return err
				},
			},
			{
				Name:  "print",
				Usage: "print the effective configuration as TOML, defaults included",
				Flags: []cli.Flag{profileFlag},
				Action: func(c *cli.Context) error {
					file, err := loadConfig()
					if err != nil {
						return err
					}
					if maskNotifySecrets(file) {
						fmt.Fprintln(c.App.Writer, "# The secrets of [notify] show as …; the file keeps them.")
					}
					return file.Encode(c.App.Writer, c.String("profile"))
				},
			},
		},
	}
}

// maskNotifySecrets hides the secrets of the webhook URL, of the reply
// topic and its access token, and of URLs
// among the command's arguments, in what config print shows (the file is
// not written): a terminal's scrollback, a pasted bug report or a screen
// share must not carry them. It reports whether it hid anything.
func maskNotifySecrets(file *config.File) bool {
	n := &file.Notify
	masked := notify.Mask(n.URL)
	changed := masked != n.URL
	n.URL = masked
	if masked := notify.Mask(n.Answer.Topic); masked != n.Answer.Topic {
		n.Answer.Topic, changed = masked, true
	}
	if n.Answer.AccessToken != "" {
		n.Answer.AccessToken, changed = "…", true
	}
	n.Command = slices.Clone(n.Command)
	for i, arg := range n.Command {
		if strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://") {
			masked := notify.Mask(arg)
			changed = changed || masked != arg
			n.Command[i] = masked
		}
	}
	return changed
}
