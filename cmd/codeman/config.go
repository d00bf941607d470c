package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/config"
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
					return file.Encode(c.App.Writer, c.String("profile"))
				},
			},
		},
	}
}
