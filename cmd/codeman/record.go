package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/respawn/replay"
	"github.com/codeman-dev/codeman/tmux"
)

func recordCommand() *cli.Command {
	return &cli.Command{
		Name:      "record",
		Usage:     "record a tmux pane's output as asciicast v2, for replay fixtures and bug reports (Ctrl-C ends)",
		ArgsUsage: "PANE FILE.cast",
		Flags:     []cli.Flag{&cli.DurationFlag{Name: "for", Usage: "stop after this long"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fmt.Errorf("record needs PANE and FILE.cast")
			}
			info, err := tmux.Locate(c.Context, c.Args().Get(0), os.Getenv)
			if err != nil {
				return err
			}
			f, err := os.OpenFile(c.Args().Get(1), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return err
			}
			defer f.Close()
			start := time.Now()
			w, err := replay.NewWriter(f, replay.Header{Width: info.Width, Height: info.Height, Timestamp: start.Unix(), Env: map[string]string{"TERM": "tmux-256color"}})
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context, syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			if d := c.Duration("for"); d > 0 {
				ctx, stop = context.WithTimeout(ctx, d)
				defer stop()
			}
			client := tmux.NewClient(info.Server, info.Session, tmux.ClientOptions{})
			if err := client.Start(ctx); err != nil {
				return err
			}
			defer client.Close()
			chunks := make(chan []byte, 1024)
			times := make(chan time.Time, 1024)
			unsub := client.Subscribe(info.ID, func(data []byte, at time.Time) {
				chunks <- append([]byte(nil), data...)
				times <- at
			})
			defer unsub()
			fmt.Fprintf(c.App.ErrWriter, "recording %s (%s) into %s; Ctrl-C ends\n", info.Target(), info.ID, c.Args().Get(1))
			// The recording starts mid-screen: begin with the screen as it is,
			// so replay's emulator sees everything the pane shows.
			screen, err := info.Server.Run(ctx, "capture-pane", "-p", "-e", "-t", info.ID)
			if err != nil {
				return err
			}
			rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
			if err := w.Output(0, []byte("\x1b[H\x1b[2J"+strings.Join(rows, "\r\n"))); err != nil {
				return err
			}
			for {
				select {
				case <-ctx.Done():
					return nil
				case data := <-chunks:
					at := <-times
					if err := w.Output(at.Sub(start).Seconds(), data); err != nil {
						return err
					}
				}
			}
		},
	}
}
