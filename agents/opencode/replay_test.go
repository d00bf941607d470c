package opencode_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/agents/opencode"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// The core over the OpenCode recordings, with the agent of this package,
// each scenario twice: with every event codeman's plugin forwarded, and
// from the screen and the stream alone (a pane without the plugin).

type hookSet struct {
	name      string
	interpret func([]byte) (respawn.Hook, bool)
}

var hookSets = []hookSet{{"plugin", hooks.InterpretPayload}, {"screen-only", nil}}

func replayEvents(t *testing.T, c *replay.Cast, hs hookSet) replay.Timeline {
	t.Helper()
	cfg := respawn.DefaultConfig()
	cfg.KickstartPrompt = "continue with the next task"
	tl, err := replay.Run(c, replay.Options{Config: cfg, Agent: opencode.New(), Interpret: hs.interpret})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// forEachHookSet runs check on the scenario replayed each way.
func forEachHookSet(t *testing.T, scenario string, check func(t *testing.T, tl replay.Timeline, hooks map[string][]float64)) {
	for _, hs := range hookSets {
		t.Run(hs.name, func(t *testing.T) {
			c := loadCast(t, scenario)
			tl := replayEvents(t, c, hs)
			check(t, tl, c.HookTimes())
			if t.Failed() {
				t.Logf("timeline:\n%s", tl)
			}
		})
	}
}

var confirm = respawn.DefaultConfig().CompletionConfirm.Seconds()

// A slow turn, and one with a slow command: nothing is typed and idle is
// not considered while it works; once it ends, one cycle follows, /new
// for its fresh session.
func TestReplay_TurnEnds(t *testing.T) {
	for _, scenario := range []string{"turn-ends", "tool-slow"} {
		t.Run(scenario, func(t *testing.T) {
			forEachHookSet(t, scenario, func(t *testing.T, tl replay.Timeline, hooks map[string][]float64) {
				prompt, idle := hooks["chat.message"][0], hooks["session.idle"][0]
				for _, e := range tl {
					if e.T > prompt && e.T < idle && (e.Event == "send" || e.To == respawn.ConfirmingIdle.String() || e.Event == "check") {
						t.Errorf("at %.3fs, while the turn of %.3fs-%.3fs works: %s", e.T, prompt, idle, e)
					}
				}
				sends := tl.Sends()
				var steps []respawn.Step
				for _, e := range sends {
					steps = append(steps, e.Step)
				}
				want := []respawn.Step{respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart}
				if !slices.Equal(steps, want) || sends[0].T < idle+confirm-0.1 || *sends[1].Text != "/new" {
					t.Errorf("sends %+v, want one cycle with /new, the first %.0fs after the turn's end at %.3fs", sends, confirm, idle)
				}
			})
		})
	}
}

// An API error OpenCode retried for over a minute: nothing is typed while
// it retries (its state row still works); once it gave up, the error is
// waited out and the resume prompt typed once.
func TestReplay_APIError(t *testing.T) {
	forEachHookSet(t, "api-error", func(t *testing.T, tl replay.Timeline, hooks map[string][]float64) {
		failed := hooks["session.error"][0]
		wait, ok := tl.Find("waiting out API error")
		if !ok || wait.T < failed {
			t.Fatalf("API error wait %+v, %v; want one after the turn failed at %.3fs", wait, ok, failed)
		}
		sends := tl.Sends()
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

// A permission prompt and the question tool's form are left alone however
// long they wait: the recording is cut where a person answered and goes on
// with three minutes of nothing.
func TestReplay_DialogsHeld(t *testing.T) {
	for _, tc := range []struct {
		scenario, answeredBy string
		need                 string
	}{
		{"permission", "permission.replied", "needs a person: permission"},
		{"question", "tool.execute.after", "needs a person: question"},
	} {
		for _, hs := range hookSets {
			t.Run(tc.scenario+"/"+hs.name, func(t *testing.T) {
				c := loadCast(t, tc.scenario)
				answered := c.HookTimes()[tc.answeredBy][0]
				var events []replay.Event
				for _, ev := range c.Events {
					if ev.Time >= answered-0.5 {
						break
					}
					events = append(events, ev)
				}
				c.Events = append(events, replay.Event{Time: answered + 180, Kind: "o", Data: fmt.Sprintf("\x1b[%d;1H", 1)})
				tl := replayEvents(t, c, hs)
				if sends := tl.Sends(); len(sends) != 0 {
					t.Errorf("sends %+v, want none into the dialog", sends)
				}
				if _, ok := tl.Find(tc.need); !ok {
					t.Errorf("no %q\n%s", tc.need, tl)
				}
			})
		}
	}
}
