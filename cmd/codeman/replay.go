package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/history"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "run a controller over a recorded session (asciicast v2) in virtual time and print its timeline",
		ArgsUsage: "FILE.cast",
		Flags: []cli.Flag{jsonFlag, profileFlag, setFlag, replayAgentFlag,
			&cli.StringFlag{Name: "history", Usage: "also write the decisions as the history of pane replay:FILE.cast in `DIR`, in the recording's time, for codeman log and report --history DIR"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("replay needs one FILE.cast")
			}
			cfg, file, err := effectiveConfig(c)
			if err != nil {
				return err
			}
			agent, err := replayAgent(c, cfg.Agent)
			if err != nil {
				return err
			}
			reader, err := agent.New(file.Patterns)
			if err != nil {
				return err
			}
			cfg = agent.Adapt(cfg)
			f, err := os.Open(c.Args().First())
			if err != nil {
				return err
			}
			defer f.Close()
			rec, err := replay.Read(f, c.Args().First())
			if err != nil {
				return err
			}
			opts := replay.Options{Config: cfg, Agent: reader, Interpret: hooks.InterpretPayload}
			var hist *replayHistory
			if dir := c.String("history"); dir != "" {
				if hist, err = openReplayHistory(dir, rec, &opts); err != nil {
					return err
				}
			}
			timeline, err := replay.Run(rec, opts)
			if hist != nil {
				if cerr := hist.close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				return err
			}
			enc := json.NewEncoder(c.App.Writer)
			for _, e := range timeline {
				if c.Bool("json") {
					err = enc.Encode(e)
				} else {
					_, err = fmt.Fprintln(c.App.Writer, safetext.Line(fmt.Sprint(e)))
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// replayAgentFlag names the recorded agent; a recording has no pane to
// recognize it in.
var replayAgentFlag = &cli.StringFlag{Name: "agent", Usage: "the agent the recording shows: " + strings.Join(agents.Names(), " or ") + " (default: the config's agent key, and " + agents.Default + " for auto)"}

// replayAgent is the agent a replay reads the recording with: the flag's,
// else the config's, else the default.
func replayAgent(c *cli.Context, configured string) (agents.Info, error) {
	name := c.String(replayAgentFlag.Name)
	if name == "" {
		name = configured
	}
	if name == agents.Auto || name == "" {
		name = agents.Default
	}
	return agents.Lookup(name)
}

// replayHistory writes a replay's decisions as the history of the pane
// replay:FILE, between an attach at the replay's start and a detach at
// its end (the recording's end, or the last decision when later).
type replayHistory struct {
	w     *history.Writer
	pane  string
	cast  *replay.Cast
	start time.Time
	last  time.Time
}

func openReplayHistory(dir string, c *replay.Cast, opts *replay.Options) (*replayHistory, error) {
	// A replayed day lies in the past: lines are not aged out, and no
	// decision is dropped.
	w, err := history.Open(history.Options{Dir: dir, MaxAge: -1, Block: true})
	if err != nil {
		return nil, err
	}
	h := &replayHistory{w: w, pane: "replay:" + c.Name, cast: c}
	opts.OnDecision = h.decision
	return h, nil
}

func (h *replayHistory) decision(d respawn.Decision) {
	if h.start.IsZero() {
		h.start = d.At // the controller starts at the replay's start
		h.w.Write(history.Record{At: d.At, Pane: h.pane, Kind: history.KindAttach, Reason: "replay of " + h.cast.Name})
	}
	h.last = d.At
	h.w.Write(history.Record{At: d.At, Pane: h.pane, Kind: history.KindDecision, Decision: &d})
}

func (h *replayHistory) close() error {
	if !h.start.IsZero() {
		end := h.last
		if n := len(h.cast.Events); n > 0 {
			end = later(end, h.start.Add(time.Duration(h.cast.Events[n-1].Time*float64(time.Second))))
		}
		h.w.Write(history.Record{At: end, Pane: h.pane, Kind: history.KindDetach, Reason: "replay ended"})
	}
	return h.w.Close()
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
