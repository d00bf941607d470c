package copilot_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// The core over the Copilot recordings, with the agent of this package,
// each scenario twice: with every hook the recording holds, and from the
// screen and the stream alone (a pane without codeman's hooks).

type hookSet struct {
	name      string
	interpret func([]byte) (respawn.Hook, bool)
}

var hookSets = []hookSet{{"hooks", hooks.InterpretPayload}, {"screen-only", nil}}

// replayed is a recording run through the core.
type replayed struct {
	replay.Timeline
	hooks map[string][]float64
	end   float64 // the recording's last output
}

func replayCast(t *testing.T, scenario string, hs hookSet) replayed {
	t.Helper()
	c := loadCast(t, scenario)
	cfg := respawn.DefaultConfig()
	cfg.KickstartPrompt = "continue with the next task"
	tl, err := replay.Run(c, replay.Options{Config: cfg, Agent: copilot.New(), Interpret: hs.interpret})
	if err != nil {
		t.Fatal(err)
	}
	r := replayed{Timeline: tl, hooks: c.HookTimes()}
	for _, ev := range c.Events {
		if ev.Kind == "o" {
			r.end = ev.Time
		}
	}
	return r
}

// forEachHookSet runs check on the scenario replayed each way.
func forEachHookSet(t *testing.T, scenario string, check func(t *testing.T, r replayed)) {
	for _, hs := range hookSets {
		t.Run(hs.name, func(t *testing.T) {
			r := replayCast(t, scenario, hs)
			check(t, r)
			if t.Failed() {
				t.Logf("timeline:\n%s", r)
			}
		})
	}
}

var confirm = respawn.DefaultConfig().CompletionConfirm.Seconds()

// A slow turn: nothing is typed and idle is not considered while it
// works; once it ends, the cycle starts with the update prompt.
func TestReplay_TurnEnds(t *testing.T) {
	forEachHookSet(t, "turn-ends", func(t *testing.T, r replayed) {
		prompt, stop := r.hooks["userPromptSubmitted"][0], r.hooks["agentStop"][0]
		for _, e := range r.Timeline {
			if e.T > prompt && e.T < stop && (e.Event == "send" || e.To == respawn.ConfirmingIdle.String() || e.Event == "check") {
				t.Errorf("at %.3fs, while the turn of %.3fs-%.3fs works: %s", e.T, prompt, stop, e)
			}
		}
		sends := r.Sends()
		if len(sends) == 0 || sends[0].Step != respawn.StepUpdate || sends[0].T < stop+confirm {
			t.Errorf("first send %+v, want the update prompt at least %.0fs after the turn's end at %.3fs", sends, confirm, stop)
		}
		var steps []respawn.Step
		for _, e := range sends {
			steps = append(steps, e.Step)
		}
		want := []respawn.Step{respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart}
		if !slices.Equal(steps, want) {
			t.Errorf("steps %v, want one cycle %v", steps, want)
		}
		if clear := sends[1]; clear.Text == nil || *clear.Text != "/clear" {
			t.Errorf("clear step typed %+v, want /clear", clear)
		}
	})
}

// An API error ends the turn without agentStop: it is waited out, and the
// resume prompt is typed once, not a cycle into the failed turn.
func TestReplay_APIError(t *testing.T) {
	forEachHookSet(t, "api-error", func(t *testing.T, r replayed) {
		wait, ok := r.Find("waiting out API error")
		if !ok || wait.T < r.end-5 {
			t.Fatalf("API error wait %+v, %v; want one after the failure row", wait, ok)
		}
		sends := r.Sends()
		if len(sends) == 0 || sends[0].Step != respawn.StepResume || sends[0].T <= wait.T {
			t.Fatalf("sends %+v, want the resume prompt first, after the wait", sends)
		}
		for _, e := range sends[1:] {
			if e.Step == respawn.StepResume {
				t.Errorf("resumed again at %.3fs", e.T)
			}
		}
	})
}

// A usage limit without a reset time is waited out for the fallback:
// nothing is typed in the recording's hour.
func TestReplay_UsageLimit(t *testing.T) {
	forEachHookSet(t, "usage-limit", func(t *testing.T, r replayed) {
		if _, ok := r.Find("waiting out usage limit"); !ok {
			t.Error("no usage limit wait")
		}
		if sends := r.Sends(); len(sends) != 0 {
			t.Errorf("sends %+v, want none during the limit", sends)
		}
	})
}

// held is a recording cut where a person answered its dialog, opened at
// shown seconds, and continued by minutes of nothing but the permission
// prompt's elapsed-time counter: the dialog waits for a person.
func held(t *testing.T, scenario string, shown float64, hs hookSet) replayed {
	t.Helper()
	c := loadCast(t, scenario)
	var events []replay.Event
	for _, ev := range c.Events {
		if ev.Time > shown+1 {
			break
		}
		events = append(events, ev)
	}
	last := events[len(events)-1].Time
	for i := 1; i <= 180; i++ {
		events = append(events, replay.Event{Time: last + float64(i), Kind: "o", Data: fmt.Sprintf("\b\b\b%ds", i)})
	}
	c.Events = events
	cfg := respawn.DefaultConfig()
	tl, err := replay.Run(c, replay.Options{Config: cfg, Agent: copilot.New(), Interpret: hs.interpret})
	if err != nil {
		t.Fatal(err)
	}
	return replayed{Timeline: tl, hooks: c.HookTimes(), end: events[len(events)-1].Time}
}

// A permission prompt and a question are left alone, however long they
// wait, and a person is asked for; a plan approval that keeps every
// permission asked is accepted with one Enter.
func TestReplay_DialogsHeld(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		shown    float64
		need     string // "" for the plan, which codeman accepts
	}{
		{"permission", 7.76, "needs a person: permission"},
		{"question", 7.62, "needs a person: question"},
		{"plan", 7.53, ""},
	} {
		for _, hs := range hookSets {
			t.Run(tc.scenario+"/"+hs.name, func(t *testing.T) {
				r := held(t, tc.scenario, tc.shown, hs)
				sends := r.Sends()
				if tc.need != "" {
					if len(sends) != 0 {
						t.Errorf("sends %+v, want none into the dialog", sends)
					}
					if _, ok := r.Find(tc.need); !ok {
						t.Errorf("no %q", tc.need)
					}
				} else if len(sends) != 1 || sends[0].Key != respawn.KeyEnter || sends[0].Step != respawn.StepAutoAccept {
					t.Errorf("sends %+v, want one Enter accepting the plan", sends)
				}
				if t.Failed() {
					t.Logf("timeline:\n%s", r)
				}
			})
		}
	}
}
