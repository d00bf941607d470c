package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/codeman-dev/codeman/respawn"
)

// DefaultMaxTail is how long the clock keeps running after the last event
// (30 virtual minutes).
const DefaultMaxTail = 30 * time.Minute

// quietAfter ends the tail once the controller has decided nothing for
// this long while watching.
const quietAfter = 5 * time.Minute

// Options configure a replay.
type Options struct {
	Config respawn.Config
	// Agent reads the recorded agent. It is required: Run returns an
	// error without one.
	Agent respawn.Agent
	// Interpret turns a hook payload from an "m" event into a signal; nil
	// ignores hook markers.
	Interpret func(payload []byte) (respawn.Hook, bool)
	MaxTail   time.Duration // default DefaultMaxTail
	// OnDecision, when set, gets every decision as it is made, stamped in
	// virtual time: codeman replay --history writes them as a pane's history.
	OnDecision func(respawn.Decision)
}

// Entry is one line of the timeline.
type Entry struct {
	T      float64              `json:"t"`
	Event  string               `json:"event"`
	From   string               `json:"from,omitempty"`
	To     string               `json:"to,omitempty"`
	Step   respawn.Step         `json:"step,omitempty"`
	Text   *string              `json:"text,omitempty"`
	Key    respawn.Key          `json:"key,omitempty"`
	Reason string               `json:"reason,omitempty"`
	Kind   respawn.DecisionKind `json:"-"`
}

// String renders an entry for the plain timeline.
func (e Entry) String() string {
	switch {
	case e.Event == "state":
		return fmt.Sprintf("%9.3fs  state  %s -> %s: %s", e.T, e.From, e.To, e.Reason)
	case e.Event == "send" && e.Key != "":
		return fmt.Sprintf("%9.3fs  send   key %s (%s): %s", e.T, e.Key, e.Step, e.Reason)
	case e.Event == "send":
		return fmt.Sprintf("%9.3fs  send   %q (%s)", e.T, *e.Text, e.Step)
	}
	return fmt.Sprintf("%9.3fs  %-6s %s", e.T, e.Event, e.Reason)
}

// run is one replay in progress.
type run struct {
	opts     Options
	core     *respawn.Core
	virtual  *respawn.Virtual // its Now is the replay's time
	emu      *vt.Emulator
	start    time.Time
	timeline []Entry
	done     bool
}

// Run replays c and returns the controller's timeline. AI checks are off:
// there is no session to ask. A cast that Read would refuse, for its size
// or its events' times, is refused here too.
func Run(c *Cast, opts Options) (Timeline, error) {
	if opts.Agent == nil {
		return nil, fmt.Errorf("%s: no agent to read the recording with (replay.Options.Agent is nil)", c.Name)
	}
	if err := defaultLimits.checkHeader(c.Header); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	cfg := opts.Config
	cfg.AIIdleCheck.Enabled = false
	cfg.AIPlanCheck.Enabled = false
	if opts.MaxTail == 0 {
		opts.MaxTail = DefaultMaxTail
	}
	start := time.Unix(c.Header.Timestamp, 0).UTC()
	if c.Header.Timestamp == 0 {
		start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	}
	r := &run{
		opts:  opts,
		core:  respawn.NewCore("replay:"+c.Name, cfg, opts.Agent),
		emu:   vt.NewEmulator(c.Header.Width, c.Header.Height),
		start: start,
	}
	r.virtual = &respawn.Virtual{Core: r.core, Now: start, Do: r.do}
	// Only the screen is read: a scrollback would hold thousands of lines
	// of cells for nothing.
	r.emu.SetScrollbackSize(1)
	// The emulator answers terminal queries on its input side; nothing
	// reads them here, so drain them or its writes would block.
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(io.Discard, r.emu)
	}()
	defer func() {
		// The input side is closed first and the drain waited for: the
		// emulator's Close alone would race the drain's Read on its
		// closed flag.
		if c, ok := r.emu.InputPipe().(io.Closer); ok {
			_ = c.Close()
		}
		<-drained
		r.emu.Close()
	}()

	r.core.Start(start)
	r.perform()
	for _, ev := range c.Events {
		if r.done {
			break
		}
		err := defaultLimits.checkEvent(ev)
		if err == nil {
			err = r.advance(start.Add(seconds(ev.Time)))
		}
		if err == nil {
			err = r.apply(ev)
		}
		if err != nil {
			return r.timeline, fmt.Errorf("%s:%d: %w", c.Name, ev.Line, err)
		}
	}
	if err := r.tail(opts.MaxTail); err != nil {
		return r.timeline, fmt.Errorf("%s: after the recording: %w", c.Name, err)
	}
	return r.timeline, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func (r *run) apply(ev Event) error {
	switch ev.Kind {
	case "o":
		r.emu.WriteString(ev.Data)
		r.core.Output(r.virtual.Now, []byte(ev.Data))
	case "r":
		w, h, err := defaultLimits.resize(ev.Data)
		if err != nil {
			return err
		}
		r.emu.Resize(w, h)
	case "m":
		payload, ok := ev.HookPayload()
		if !ok || r.opts.Interpret == nil {
			return nil
		}
		if !json.Valid(payload) {
			return errors.New("hook marker is not valid JSON")
		}
		if h, ok := r.opts.Interpret(payload); ok {
			h.At = r.virtual.Now
			r.core.Hook(r.virtual.Now, h)
		}
	}
	r.perform()
	return nil
}

// advance runs the core's deadlines up to t, each at its own time.
func (r *run) advance(t time.Time) error {
	if r.done {
		return nil
	}
	return r.virtual.AdvanceTo(t)
}

// tail keeps the clock running after the recording until the controller
// has finished the cycle in progress at its end or the next one, has been
// quiet for a while, or maxTail has passed.
func (r *run) tail(maxTail time.Duration) error {
	end, cycles, inCycle := r.virtual.Now, r.core.Cycles(), r.core.State().InCycle()
	lastDecision := r.virtual.Now
	for !r.done && r.virtual.Now.Sub(end) < maxTail {
		at, ok := r.core.Deadline()
		if !ok || at.Sub(end) > maxTail {
			break
		}
		n := len(r.timeline)
		if err := r.advance(at); err != nil {
			return err
		}
		if len(r.timeline) > n {
			lastDecision = r.virtual.Now
		}
		watching := r.core.State() == respawn.Watching
		if watching && (inCycle || r.core.Cycles() > cycles) {
			break
		}
		if watching && r.virtual.Now.Sub(lastDecision) >= quietAfter {
			break
		}
	}
	return nil
}

// perform carries out the core's actions at once, in virtual time.
func (r *run) perform() { r.virtual.Perform() }

// do carries out one action: screens come from the emulator, sends are
// taken as typed, AI checks are unavailable.
func (r *run) do(a respawn.Action) {
	now := r.virtual.Now
	switch a.Kind {
	case respawn.ActSnapshot:
		r.core.Screen(now, r.screen())
	case respawn.ActSubmit, respawn.ActPress:
		r.core.SendDone(now, a.ID, nil)
	case respawn.ActCheck:
		r.core.CheckDone(now, a.ID, respawn.CheckResult{}, respawn.ErrCheckerUnavailable)
	case respawn.ActDecision:
		r.record(a.Decision)
	case respawn.ActDone:
		r.done = true
	}
}

func (r *run) record(d respawn.Decision) {
	if r.opts.OnDecision != nil {
		r.opts.OnDecision(d)
	}
	e := Entry{T: d.At.Sub(r.start).Seconds(), Event: string(d.Kind), From: d.From, To: d.To, Step: d.Step, Key: d.Key, Reason: d.Reason, Kind: d.Kind}
	if d.Kind == respawn.DecisionSend && d.Key == "" {
		text := d.Text
		e.Text = &text
		e.Reason = ""
	}
	r.timeline = append(r.timeline, e)
}

// screen renders the emulator's screen.
func (r *run) screen() respawn.Screen {
	lines := strings.Split(r.emu.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return respawn.Screen{Lines: lines, Width: r.emu.Width(), Height: r.emu.Height(), At: r.virtual.Now}
}
