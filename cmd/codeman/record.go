package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn/replay"
)

func recordCommand() *cli.Command {
	return &cli.Command{
		Name:  "record",
		Usage: "record a pane's output and hook events as asciicast v2, for replay fixtures and bug reports (Ctrl-C ends)",
		Description: paneUsage + ". The recording holds what codeman sees: a tmux pane's output as it came, " +
			"a screen window's hardcopies as redraws, and the pane's hook events as markers, so " +
			"codeman replay FILE.cast decides on the same evidence.",
		ArgsUsage: "PANE FILE.cast",
		Flags:     []cli.Flag{&cli.DurationFlag{Name: "for", Usage: "stop after this long"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fmt.Errorf("record needs PANE and FILE.cast")
			}
			addr, client, err := paneAndClient(c, true)
			if err != nil {
				return err
			}
			f, err := os.OpenFile(c.Args().Get(1), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return err
			}
			defer f.Close()
			ctx, stop := signal.NotifyContext(c.Context, syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			if d := c.Duration("for"); d > 0 {
				ctx, stop = context.WithTimeout(ctx, d)
				defer stop()
			}
			fmt.Fprintf(c.App.ErrWriter, "recording %s into %s; Ctrl-C ends\n", addr, c.Args().Get(1))
			rec := &castRecorder{file: f}
			err = client.Record(ctx, addr, rec.add)
			if err == nil && rec.w == nil {
				err = errors.New("the daemon sent nothing to record")
			}
			return err
		},
	}
}

// castRecorder writes a pane's recording as an asciicast.
type castRecorder struct {
	file  *os.File
	w     *replay.Writer
	start api.RecordEvent
	last  float64 // a cast's times never go back; a marker may be older than output already written
}

func (r *castRecorder) add(ev api.RecordEvent) error {
	if r.w == nil {
		if ev.Kind != api.RecordSize {
			return fmt.Errorf("recording starts with %q, want the pane's size", ev.Kind)
		}
		w, h, err := parseSize(ev.Data)
		if err != nil {
			return err
		}
		r.start = ev
		r.w, err = replay.NewWriter(r.file, replay.Header{Width: w, Height: h, Timestamp: ev.At.Unix(), Env: map[string]string{"TERM": "xterm-256color"}})
		return err
	}
	at := max(ev.At.Sub(r.start.At).Seconds(), r.last)
	r.last = at
	switch ev.Kind {
	case api.RecordOutput:
		return r.w.Output(at, []byte(ev.Data))
	case api.RecordMarker:
		return r.w.Write(at, "m", ev.Data)
	}
	return nil // a kind of a newer daemon
}

// parseSize reads COLSxROWS.
func parseSize(s string) (int, int, error) {
	cols, rows, ok := strings.Cut(s, "x")
	w, err1 := strconv.Atoi(cols)
	h, err2 := strconv.Atoi(rows)
	if !ok || err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return 0, 0, fmt.Errorf("recording: pane size %q is not COLSxROWS", s)
	}
	return w, h, nil
}
