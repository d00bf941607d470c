package codex_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// chunk is one output event and what the stream read from it.
type chunk struct {
	t    float64
	data string
	f    respawn.ChunkFacts
}

func feedCast(c *replay.Cast) []chunk {
	s := codex.New().NewStream()
	var out []chunk
	for _, ev := range c.Events {
		if ev.Kind == "o" {
			out = append(out, chunk{t: ev.Time, data: ev.Data, f: s.Feed([]byte(ev.Data))})
		}
	}
	return out
}

// turnEnds is how many turns end (state=done) in each recording: every
// finished prompt, /compact and /init's included.
var turnEnds = map[string]int{"turn-ends": 1, "long-work": 1, "init": 1, "compact": 2, "clear": 2, "new": 2, "exit": 1}

// The stream over every recording: a completion exactly where a turn
// ends, work from the state notice or the status row until the next
// state, and the same facts however the bytes are cut.
func TestStream_Recordings(t *testing.T) {
	for _, scenario := range scenarios {
		t.Run(scenario, func(t *testing.T) {
			chunks := feedCast(loadCast(t, scenario))
			completions, visible := 0, 0
			var all strings.Builder
			for _, ch := range chunks {
				all.WriteString(ch.data)
				visible += ch.f.Visible
				if ch.f.Completion {
					completions++
					if !strings.Contains(ch.data, "state=done") {
						t.Errorf("completion at %.3fs without a done notice: %q", ch.t, ch.data)
					}
				}
				if ch.f.Tokens != -1 {
					t.Errorf("tokens %d at %.3fs", ch.f.Tokens, ch.t)
				}
				switch st := lastState(ch.data); st {
				case "":
				case "working":
					if !ch.f.Working {
						t.Errorf("not working at %.3fs after state=working", ch.t)
					}
				default:
					if ch.f.Working {
						t.Errorf("working at %.3fs after state=%s", ch.t, st)
					}
				}
			}
			if completions != turnEnds[scenario] {
				t.Errorf("%d completions, want %d", completions, turnEnds[scenario])
			}
			if want := visibleRunes(claude.StripANSI(all.String())); visible != want {
				t.Errorf("Visible adds up to %d, the stripped recording has %d", visible, want)
			}

			// Byte by byte: the same facts, every sequence read whole.
			s := codex.New().NewStream()
			completionsByByte, visibleByByte := 0, 0
			var last respawn.ChunkFacts
			for _, b := range []byte(all.String()) {
				last = s.Feed([]byte{b})
				visibleByByte += last.Visible
				if last.Completion {
					completionsByByte++
				}
			}
			if completionsByByte != completions || visibleByByte != visible || last.Working != chunks[len(chunks)-1].f.Working {
				t.Errorf("byte by byte: %d completions, %d visible, working %v; by chunk %d, %d, %v",
					completionsByByte, visibleByByte, last.Working, completions, visible, chunks[len(chunks)-1].f.Working)
			}
		})
	}
}

// lastState returns the state of the last OSC 7501 notice in data.
func lastState(data string) string {
	i := strings.LastIndex(data, "\x1b]7501;state=")
	if i < 0 {
		return ""
	}
	rest := data[i+len("\x1b]7501;state="):]
	end := strings.IndexAny(rest, ":\x07\x1b")
	if end < 0 {
		return ""
	}
	return rest[:end]
}

func visibleRunes(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) && unicode.IsPrint(r) {
			n++
		}
	}
	return n
}

// long-work streams its reply with no status row for four seconds, the
// screen looking idle: the title spinner's OSC, every 100 ms, keeps output
// flowing and the stream reads it as work until the turn's end.
func TestStream_LongWorkStreamingStretch(t *testing.T) {
	c := loadCast(t, "long-work")
	hooks := c.HookTimes()
	stop := hooks["Stop"][0]
	chunks := feedCast(c)
	fs := frames(t, c)
	a := codex.New()
	var started, prev float64
	looksIdle := 0
	for _, ch := range chunks {
		if ch.t > hooks["UserPromptSubmit"][0]-0.2 && started == 0 && ch.f.Working {
			started = ch.t
		}
		if started == 0 || ch.t >= stop {
			continue
		}
		if !ch.f.Working {
			t.Errorf("not working at %.3fs, before the turn's end at %.3fs", ch.t, stop)
		}
		if prev > 0 && ch.t-prev > 0.25 {
			t.Errorf("no output for %.2fs before %.3fs", ch.t-prev, ch.t)
		}
		prev = ch.t
		if f := a.Classify(frameAt(t, fs, ch.t).screen); !f.Working && f.PromptBox && !f.Completion {
			looksIdle++
		}
	}
	if started == 0 || started > 3 {
		t.Fatalf("work seen from %.3fs, want from the prompt at 2.6s", started)
	}
	if looksIdle < 20 {
		t.Errorf("%d chunks under an idle-looking screen; the recording streams for 4s", looksIdle)
	}
}

// An idle Codex writes nothing: after a turn's end, an error, an interrupt
// or a closed menu nothing more comes until the recording stops, so
// silence can confirm idle. Only the approval prompt blinks its title,
// once a second, and that is no work.
func TestStream_IdleCodexIsSilent(t *testing.T) {
	for _, scenario := range scenarios {
		chunks := feedCast(loadCast(t, scenario))
		lastNotice := -1
		for i, ch := range chunks {
			if lastState(ch.data) != "" {
				lastNotice = i
			}
		}
		if lastNotice < 0 {
			t.Errorf("%s: no state notice", scenario)
			continue
		}
		state := lastState(chunks[lastNotice].data)
		var after []chunk
		for _, ch := range chunks[lastNotice+1:] {
			if ch.t > chunks[lastNotice].t+0.05 { // the notice's own frame
				after = append(after, ch)
			}
		}
		switch {
		case scenario == "approval":
			// The status row spins on for 0.7 s after state=blocked,
			// until the prompt is drawn.
			drawn := slices.IndexFunc(after, func(ch chunk) bool { return strings.Contains(ch.data, "Would you like to") })
			if drawn < 0 {
				t.Fatal("approval: the prompt is never drawn")
			}
			shown := after[drawn].t
			after = slices.DeleteFunc(after, func(ch chunk) bool { return ch.t < shown+0.1 }) // the prompt's frame
			for _, ch := range after {
				if ch.f.Working || ch.f.Visible != 0 || !strings.Contains(ch.data, "Action Required") {
					t.Errorf("approval at %.3fs: %+v %q", ch.t, ch.f, ch.data)
				}
			}
			if len(after) < 10 {
				t.Errorf("approval: %d title blinks, want one a second", len(after))
			}
		case state == "working":
			// clear and new end on a turn of their own; exit on the
			// primary screen.
		case len(after) > 0:
			t.Errorf("%s: %d chunks after state=%s at %.3fs, first at %.3fs: %q",
				scenario, len(after), state, chunks[lastNotice].t, after[0].t, after[0].data)
		}
	}
}

// The phrase and the notice split anywhere still count, and Reset forgets
// work seen.
func TestStream_Pieces(t *testing.T) {
	s := codex.New().NewStream()
	if f := s.Feed([]byte("\x1b[44;1H• Working (0s • esc to in")); f.Working {
		t.Fatal("working before the phrase ended")
	}
	if f := s.Feed([]byte("terrupt)")); !f.Working || f.Visible != 8 {
		t.Fatalf("phrase split: %+v", f)
	}
	// The status row counts where it is drawn; later redraws of its
	// seconds are no evidence of their own.
	if f := s.Feed([]byte("\x1b[44;12H3")); f.Working {
		t.Fatal("working on a redraw of the seconds")
	}
	if f := s.Feed([]byte("\x1b]7501;state=wor")); f.Working {
		t.Fatal("working before the notice ended")
	}
	if f := s.Feed([]byte("king:app=codex\x1b")); !f.Working {
		t.Fatal("notice ended by ESC of ST: not working")
	}
	if f := s.Feed([]byte("\\\x1b]0;⠋ proj\a")); !f.Working {
		t.Fatal("a title while working: not working")
	}
	s.Reset()
	if f := s.Feed([]byte("x")); f.Working {
		t.Fatal("working after Reset")
	}
	s.Feed([]byte("\x1b]7501;state=working:app=codex\x1b\\"))
	if f := s.Feed([]byte("\x1b]7501;state=done:app=codex\x1b\\\a")); f.Working || !f.Completion || f.Visible != 0 {
		t.Fatalf("done: %+v", f)
	}
	// The words apart on two rows, or in another OSC (a title), are no
	// status row.
	for _, text := range []string{"esc to\x1b[2;1Hinterrupt", "\x1b]0;esc to interrupt\a", "esc  to\x1b[3Cinterrupt"} {
		s := codex.New().NewStream()
		f := s.Feed([]byte(text))
		if want := strings.Contains(text, "[3C"); f.Working != want {
			t.Errorf("%q: working %v", text, f.Working)
		}
	}
}

func TestStream_NoAllocations(t *testing.T) {
	chunks := feedCast(loadCast(t, "turn-ends"))
	s := codex.New().NewStream()
	data := make([][]byte, len(chunks))
	for i, ch := range chunks {
		data[i] = []byte(ch.data)
	}
	if n := testing.AllocsPerRun(5, func() {
		for _, d := range data {
			s.Feed(d)
		}
	}); n != 0 {
		t.Errorf("%.0f allocations per recording", n)
	}
}

func BenchmarkStream_Recordings(b *testing.B) {
	var data [][]byte
	size := 0
	for _, scenario := range scenarios {
		for _, ev := range loadCast(b, scenario).Events {
			if ev.Kind == "o" {
				data = append(data, []byte(ev.Data))
				size += len(ev.Data)
			}
		}
	}
	s := codex.New().NewStream()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range data {
			s.Feed(d)
		}
	}
}

// A chunk that only sets the window title is cosmetic unless Codex works:
// the approval prompt's blinking title leaves the pane silent, the
// spinner of a turn streaming its reply does not.
func TestStream_TitleOnlyChunks(t *testing.T) {
	const (
		blink    = "\x1b]0;[ ! ] Action Required | Fake task | proj\x07"
		blinkST  = "\x1b]2;[ . ] Action Required | proj\x1b\\"
		spinner  = "\x1b]0;⠋ Fake task | proj\x07"
		working  = "\x1b]7501;state=working:app=codex\x1b\\"
		blocked  = "\x1b]7501;state=blocked:app=codex:kind=permission\x07"
		halfOSC  = "\x1b]0;[ ! ] Action"
		withText = blink + "Would you like to run the following command?"
	)
	tests := []struct {
		name   string
		before []string // fed first
		chunk  string
		want   bool
	}{
		{"BlinkWhileBlocked", []string{working, blocked}, blink, true},
		{"BlinkST", []string{blocked}, blinkST, true},
		{"TwoTitles", []string{blocked}, blink + blinkST, true},
		{"SpinnerWhileWorking", []string{working}, spinner, false},
		{"StateNotice", nil, blocked, false},
		{"TitleAndText", []string{blocked}, withText, false},
		{"HalfATitle", []string{blocked}, halfOSC, false},
		{"RestOfASplitTitle", []string{blocked, halfOSC}, " Required\x07", false},
		{"CursorMove", []string{blocked}, "\x1b[5;1H", false},
		{"Empty", []string{blocked}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := codex.New().NewStream()
			for _, b := range tt.before {
				s.Feed([]byte(b))
			}
			if got := s.Feed([]byte(tt.chunk)); got.Cosmetic != tt.want {
				t.Errorf("Cosmetic = %t, want %t (facts %+v)", got.Cosmetic, tt.want, got)
			}
		})
	}
}
