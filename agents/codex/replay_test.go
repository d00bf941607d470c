package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// The core over the Codex recordings, with the agent of this package.
// Each scenario runs three ways: with every hook the recording holds,
// with the model-request hooks left out (PreModelRequest and a failed
// PostModelRequest carry signals only since the hooks package maps them),
// and from the screen and the stream alone.

// hookSet names one way to feed a recording's hooks.
type hookSet struct {
	name      string
	interpret func([]byte) (respawn.Hook, bool)
}

var hookSets = []hookSet{
	{"hooks", hooks.InterpretPayload},
	{"no-model-request-hooks", func(payload []byte) (respawn.Hook, bool) {
		var p struct {
			Event string `json:"hook_event_name"`
		}
		if json.Unmarshal(payload, &p) != nil || strings.HasSuffix(p.Event, "ModelRequest") {
			return respawn.Hook{}, false
		}
		return hooks.InterpretPayload(payload)
	}},
	{"screen-only", nil},
}

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
	tl, err := replay.Run(c, replay.Options{Config: cfg, Agent: codex.New(), Interpret: hs.interpret})
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

// A turn ends: idle is confirmed after the turn's end and its silence,
// and the first thing typed is the update prompt.
func TestReplay_TurnEnds(t *testing.T) {
	forEachHookSet(t, "turn-ends", func(t *testing.T, r replayed) {
		stop := r.hooks["Stop"][0]
		idle, ok := r.Find("idle confirmed")
		if !ok || idle.T < r.end {
			t.Fatalf("idle confirmed %v at %.3fs, want after the turn's last output at %.3fs", ok, idle.T, r.end)
		}
		sends := r.Sends()
		if len(sends) == 0 || sends[0].Step != respawn.StepUpdate || sends[0].T < stop+confirm {
			t.Errorf("first send %+v, want the update prompt at least %.0fs after the turn's end at %.3fs", sends, confirm, stop)
		}
	})
}

// A long turn, four seconds of it streaming with no status row on screen:
// nothing is typed and idle is not even considered until the turn ends.
func TestReplay_LongWork(t *testing.T) {
	forEachHookSet(t, "long-work", func(t *testing.T, r replayed) {
		stop := r.hooks["Stop"][0]
		for _, e := range r.Timeline {
			if e.T < stop && (e.Event == "send" || e.To == respawn.ConfirmingIdle.String() || e.Event == "check" || e.Event == "veto") {
				t.Errorf("at %.3fs, before the turn's end at %.3fs: %s", e.T, stop, e)
			}
		}
		if sends := r.Sends(); len(sends) == 0 || sends[0].T < stop+confirm {
			t.Errorf("sends %+v, want the first at least %.0fs after %.3fs", sends, confirm, stop)
		}
	})
}

// An approval prompt: nothing is typed (Enter would approve the command)
// and a person is asked for.
func TestReplay_Approval(t *testing.T) {
	forEachHookSet(t, "approval", func(t *testing.T, r replayed) {
		if sends := r.Sends(); len(sends) != 0 {
			t.Errorf("sends %+v, want none", sends)
		}
		if _, ok := r.Find("needs a person: permission"); !ok {
			t.Error("no permission need raised")
		}
	})
}

// A real approval prompt blinks the pane's title once a second for as long
// as it waits. The recording is continued with three minutes of that
// blink: the blink is no output, so even from the screen alone the pane
// falls silent, the prompt is read, and a person is asked for before the
// blink ends; nothing is typed.
func TestReplay_ApprovalBlinking(t *testing.T) {
	c := loadCast(t, "approval")
	var events []replay.Event
	last := 0.0
	for _, ev := range c.Events {
		if ev.Kind == "o" {
			last = ev.Time
		}
		if ev.Kind != "m" || !strings.HasPrefix(ev.Data, "end") {
			events = append(events, ev)
		}
	}
	blinks := []string{"\x1b]0;[ ! ] Action Required | Fake task | proj\x07", "\x1b]0;[ . ] Action Required | Fake task | proj\x07"}
	for i := 1; i <= 180; i++ {
		events = append(events, replay.Event{Time: last + float64(i), Kind: "o", Data: blinks[i%2]})
	}
	end := last + 180
	c.Events = events
	for _, hs := range hookSets {
		t.Run(hs.name, func(t *testing.T) {
			tl, err := replay.Run(c, replay.Options{Config: respawn.DefaultConfig(), Agent: codex.New(), Interpret: hs.interpret})
			if err != nil {
				t.Fatal(err)
			}
			r := replayed{Timeline: tl}
			if sends := r.Sends(); len(sends) != 0 {
				t.Errorf("sends %+v, want none", sends)
			}
			if need, ok := r.Find("needs a person: permission"); !ok || need.T > end {
				t.Errorf("permission need at %.1fs (raised %t), want one while the prompt blinks, before %.1fs\n%s", need.T, ok, end, r)
			}
		})
	}
}

// Usage limits: nothing is typed. Once the model menu is closed the core
// waits the limit out until the printed reset and its margin (the replay's
// clock is the recording's, in UTC, the zone Codex ran in); while the
// menu stays open (weekly-limit) a person is asked for, since Enter would
// switch the model.
func TestReplay_UsageLimits(t *testing.T) {
	forEachHookSet(t, "usage-limit", func(t *testing.T, r replayed) {
		if sends := r.Sends(); len(sends) != 0 {
			t.Errorf("sends %+v, want none", sends)
		}
		if _, ok := r.Find("needs a person: menu"); !ok {
			t.Error("no need raised for the model menu")
		}
		wait, ok := r.Find("waiting out usage limit until 21:13:00: " + usageLimit5h)
		if !ok || wait.Event != "wait" {
			t.Error("no usage-limit wait until the reset at 21:12 and the margin")
		}
	})
	forEachHookSet(t, "weekly-limit", func(t *testing.T, r replayed) {
		if sends := r.Sends(); len(sends) != 0 {
			t.Errorf("sends %+v, want none", sends)
		}
		if _, ok := r.Find("needs a person: menu: usage limit menu: Approaching rate limits"); !ok {
			t.Error("no need raised for the model menu")
		}
	})
}

// API errors: the turn's end starts the API-error backoff, and nothing is
// typed before it; the resume prompt comes once the backoff passed.
func TestReplay_APIErrors(t *testing.T) {
	backoff := respawn.DefaultConfig().APIErrorBackoff.Seconds()
	for _, scenario := range []string{"api-error", "overloaded", "rate-limit"} {
		t.Run(scenario, func(t *testing.T) {
			forEachHookSet(t, scenario, func(t *testing.T, r replayed) {
				wait, ok := r.Find("waiting out API error")
				if !ok {
					t.Fatal("no API-error wait")
				}
				sends := r.Sends()
				if len(sends) == 0 || sends[0].T < wait.T+backoff || sends[0].Step != respawn.StepResume {
					t.Errorf("first send %+v, want the resume prompt %.0fs after the wait began at %.3fs", sends, backoff, wait.T)
				}
			})
		})
	}
}

// A person interrupted the turn with Esc: nothing is typed into the
// pane for at least completion_confirm afterwards.
func TestReplay_Interrupt(t *testing.T) {
	forEachHookSet(t, "interrupt", func(t *testing.T, r replayed) {
		interrupted := r.hooks["Interrupt"][0]
		if sends := r.Sends(); len(sends) > 0 && sends[0].T < interrupted+confirm {
			t.Errorf("%s typed at %.3fs, %.1fs after the interrupt", sends[0].Step, sends[0].T, sends[0].T-interrupted)
		}
	})
}

// A person typed /clear, /new or /init between turns: nothing is typed
// into their commands, and the cycle comes after the last turn's end.
func TestReplay_Commands(t *testing.T) {
	for _, scenario := range []string{"clear", "new", "init", "compact"} {
		t.Run(scenario, func(t *testing.T) {
			forEachHookSet(t, scenario, func(t *testing.T, r replayed) {
				stops := r.hooks["Stop"]
				last := stops[len(stops)-1]
				if sends := r.Sends(); len(sends) == 0 || sends[0].T < last || sends[0].Step != respawn.StepUpdate {
					t.Errorf("first send %+v, want the update prompt after the last turn's end at %.3fs", sends, last)
				}
			})
		})
	}
}

// What the screen shows after /new and /clear (the start screen, an empty
// composer: ready for the cycle's next step) and after /init's turn.
func TestReplay_ScreensAfterCommands(t *testing.T) {
	a := codex.New()
	for _, tc := range []struct {
		scenario string
		at       float64
		w        want
	}{
		{"new", 4.0, want{promptBox: true}},
		{"clear", 4.0, want{promptBox: true}},
		{"init", 2.70, want{working: true, promptBox: true}}, // the AGENTS.md prompt submitted
		{"init", 7.9, want{completion: true, promptBox: true}},
	} {
		fs := frames(t, loadCast(t, tc.scenario))
		f := frameAt(t, fs, tc.at)
		t.Run(tc.scenario, func(t *testing.T) {
			checkFacts(t, a.Classify(f.screen), tc.w)
			if t.Failed() {
				t.Logf("screen at %.3fs:\n%s", f.t, f.screen.Text())
			}
		})
	}
	// /new leaves no trace of the last conversation on screen.
	if text := frameAt(t, frames(t, loadCast(t, "new")), 4.0).screen.Text(); strings.Contains(text, "Worked for") {
		t.Errorf("the previous turn is still on screen after /new:\n%s", text)
	}
}

// Exit: Codex left; nothing is typed into the shell.
func TestReplay_Exit(t *testing.T) {
	forEachHookSet(t, "exit", func(t *testing.T, r replayed) {
		if sends := r.Sends(); len(sends) != 0 {
			t.Errorf("sends %+v, want none", sends)
		}
	})
}

// The usage limit at every recorded width: the core waits it out until
// the reset Codex printed, wrapped or not, and its margin; nothing is
// typed.
func TestReplay_UsageLimitWidths(t *testing.T) {
	margin := respawn.DefaultConfig().UsageLimitMargin
	for _, width := range limitWidths {
		t.Run(width, func(t *testing.T) {
			reset, _ := limitResetOf(t, width)
			forEachHookSet(t, "usage-limit-"+width, func(t *testing.T, r replayed) {
				if sends := r.Sends(); len(sends) != 0 {
					t.Errorf("sends %+v, want none", sends)
				}
				want := "waiting out usage limit until " + reset.Add(margin).Format("15:04:05") + ": You’ve hit your usage limit."
				if wait, ok := r.Find(want); !ok || wait.Event != "wait" {
					t.Errorf("no decision %q", want)
				}
			})
		})
	}
}
