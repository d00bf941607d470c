package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "run a controller over a recorded session (asciicast v2) in virtual time and print its timeline",
		ArgsUsage: "FILE.cast",
		Flags:     []cli.Flag{jsonFlag, profileFlag, setFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("replay needs one FILE.cast")
			}
			cfg, file, err := effectiveConfig(c)
			if err != nil {
				return err
			}
			pat, err := respawn.CompilePatterns(file.Patterns)
			if err != nil {
				return err
			}
			f, err := os.Open(c.Args().First())
			if err != nil {
				return err
			}
			defer f.Close()
			rec, err := replay.Read(f, c.Args().First())
			if err != nil {
				return err
			}
			timeline, err := replay.Run(rec, replay.Options{Config: cfg, Patterns: pat, Interpret: hooks.InterpretPayload})
			if err != nil {
				return err
			}
			enc := json.NewEncoder(c.App.Writer)
			for _, e := range timeline {
				if c.Bool("json") {
					err = enc.Encode(e)
				} else {
					_, err = fmt.Fprintln(c.App.Writer, e)
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
}
