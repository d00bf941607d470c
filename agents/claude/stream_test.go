package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/respawn"
)

// feedAll feeds chunks to a new detector and returns the facts of each.
func feedAll(d *StreamDetector, chunks ...string) []respawn.ChunkFacts {
	out := make([]respawn.ChunkFacts, len(chunks))
	for i, c := range chunks {
		out[i] = d.Feed([]byte(c))
	}
	return out
}

func TestStreamDetector_Working(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   bool // Working after the last chunk
	}{
		{"StatusLine", []string{"\x1b[44;1H\x1b[38;5;174m✶\x1b[39m \x1b[38;5;174mSublimating…\x1b[39m"}, true},
		{"StatusLineWithTimer", []string{"✻ Sublimating… (1m 10s · ↓ 1 tokens)"}, true},
		{"CustomVerb", []string{"✢ Testing…"}, true},
		{"EveryGlyph", []string{"· Gesticulating… * Metamorphosing… ✽ Leavening… ✳ Clauding…"}, true},
		{"WordInPiecesAcrossChunks", []string{"\x1b[38;5;174m✶\x1b[39m \x1b[38;5;174mS\x1b[38;5;216mubl", "\x1b[38;5;174mima", "ting…\x1b[39m"}, true},
		{"EscapeSplitAcrossChunks", []string{"✶ Sub\x1b[38;5", ";216mlimating…"}, true},
		{"BusyFooter", []string{"\x1b[50;1H  ⏸ manual mode on · esc to interrupt"}, true},
		{"BusyFooterInPieces", []string{"esc to inte", "rrupt"}, true},
		{"APIRetry", []string{"✻ API error · retrying in 5s · attempt 1/10"}, true},
		{"APIRetryLong", []string{"✻ 429 Number of request tokens has exceeded your per-minute rate limit (fake) · retrying in 4s · attempt 5/10"}, true},
		{"LegacyBraille", []string{"⠹ Compiling"}, true},
		{"LegacyCircle", []string{"◓ Working"}, true},
		{"ThinkingInProse", []string{"● Thinking about it, I am Running the tests. The 'Thinking' file was created."}, false},
		{"GerundWithoutGlyph", []string{"  Thinking… and Running…"}, false},
		{"LowercaseAfterGlyph", []string{"✶ thinking…"}, false},
		{"EffortIndicator", []string{"◐ medium · /effort"}, false},
		{"EscToCancel", []string{"● Usage limit reached · continuing automatically at 10:06pm · esc to cancel"}, false},
		{"Idle", []string{"\x1b[50;1H  ⏸ manual mode on · ? for shortcuts"}, false},
		{"CompletionAfterWork", []string{"✶ Sublimating…", "\x1b[36;1H✻ Baked for 1m 11s · done 6:54 PM"}, false},
		{"WorkAfterCompletion", []string{"✻ Baked for 1m 11s · done 6:54 PM", "\x1b[44;1H✢ Enchanting…"}, true},
		{"WorkScrolledOutOfWindow", []string{"✶ Sublimating…", strings.Repeat("plain reply text ", 80)}, false},
		{"WorkStillInWindow", []string{"✶ Sublimating…", strings.Repeat("text ", 100)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := feedAll(NewStreamDetector(nil), tt.chunks...)
			if got := facts[len(facts)-1].Working; got != tt.want {
				t.Errorf("Working = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStreamDetector_Completion(t *testing.T) {
	yes := []string{
		"✻ Churned for 0s · done 6:47 PM",
		"✻ Worked for 2m 46s",
		"✻ Baked for 1h 2m 3s",
		"✻ Sautéed for 3s",
		"✻ Cogitated for 0s · done 6:58 PM",
		"\x1b[38;5;246m✻ \x1b[38;5;246mCrunched for 10s · done 6:58 PM\x1b[39m",
		"✻ Worked for 5m",
		"✻ Worked for 2h",
		"✻ Worked for 1m 2sa", // the regexp backtracks to "1m"
	}
	no := []string{
		"Waiting for 5s before retry",
		"✻ Waiting for 5s before retry",
		"✻ Waiting for 1 background agent to finish",
		"run for 2m",
		"✻ run for 2m",
		"Worked for 2m 46s",
		"  Thought for 3s",
		"✻ Worked on the task",
		"✻ Worked for a long time",
		"✻ Worked for 5min",
		"✻ Worked for 12345s",
	}
	for _, line := range yes {
		if f := NewStreamDetector(nil).Feed([]byte(line)); !f.Completion {
			t.Errorf("%q: no completion", line)
		}
	}
	for _, line := range no {
		if f := NewStreamDetector(nil).Feed([]byte(line)); f.Completion {
			t.Errorf("%q: completion", line)
		}
	}
}

func TestStreamDetector_CompletionOncePerLine(t *testing.T) {
	d := NewStreamDetector(nil)
	facts := feedAll(d, "✻ Bak", "ed for 1m 11s · done 6:54 PM", "\x1b[50;1H  ⏸ manual mode on · ? for shortcuts")
	got := []bool{facts[0].Completion, facts[1].Completion, facts[2].Completion}
	if got[0] || !got[1] || got[2] {
		t.Errorf("Completion per chunk = %v, want [false true false]", got)
	}
}

func TestStreamDetector_Tokens(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"✢ Enchanting… (0s · ↓ 2 tokens)", 2},
		{"✽ Leavening… (3s · ↓ 49 tokens)", 49},
		{"↓ 1.2k tokens", 1200},
		{"500 tokens", 500},
		{"123.4 tokens", 123},
		{"123.4k tokens", 123400},
		{"50K tokens", 50000},
		{"1.5m tokens", 1500000},
		{"2M tokens", 2000000},
		{"123.4 k tokens", 123400},
		{"1.23456k tokens", 1235},
		{"Current usage: 45.2k tokens remaining", 45200},
		{"Worked for 2m 46s | 150.3k tokens used", 150300},
		{"↓ 7 tokens then ↓ 9 tokens", 7},
		{"", -1},
		{"Hello world", -1},
		{"many tokens", -1},
		{".k tokens", -1},
	}
	for _, tt := range tests {
		if got := NewStreamDetector(nil).Feed([]byte(tt.in)).Tokens; got != tt.want {
			t.Errorf("Tokens(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestStreamDetector_TokensSplitAcrossChunks(t *testing.T) {
	d := NewStreamDetector(nil)
	facts := feedAll(d, "✽ Leavening… (3s · ↓ 4", "9 tok", "ens)", " more")
	want := []int64{-1, -1, 49, -1}
	for i, f := range facts {
		if f.Tokens != want[i] {
			t.Errorf("chunk %d: Tokens = %d, want %d", i, f.Tokens, want[i])
		}
	}
}

func TestStreamDetector_Visible(t *testing.T) {
	tests := []struct {
		chunks []string
		want   int
	}{
		{[]string{"abc def"}, 6},
		{[]string{"\x1b[38;5;174mab\x1b[39m"}, 2},
		{[]string{"ab\x1b[38;5;", "174mcd"}, 4}, // the split escape does not leak "174m"
		{[]string{"\x1b]0;✳ Claude Code\x07"}, 0},
		{[]string{"❯\u00a0\u00a0 \t\r\n"}, 1},
		{[]string{"\xe2\x9d", "\xaf x"}, 2}, // ❯ cut in two
		{[]string{"\xc2", "\xa0"}, 0},       // NO-BREAK SPACE cut in two
		{[]string{"─────"}, 5},
		{[]string{"\u3000\u2003\u200a"}, 0},
	}
	for _, tt := range tests {
		d := NewStreamDetector(nil)
		total := 0
		for _, f := range feedAll(d, tt.chunks...) {
			total += f.Visible
		}
		if total != tt.want {
			t.Errorf("Visible(%q) = %d, want %d", tt.chunks, total, tt.want)
		}
	}
}

func TestStreamDetector_Reset(t *testing.T) {
	d := NewStreamDetector(nil)
	if !d.Feed([]byte("✶ Sublimating…")).Working {
		t.Fatal("no working status line")
	}
	d.Feed([]byte("\x1b[38;5;"))
	d.Reset()
	f := d.Feed([]byte("174mok"))
	if f.Working || f.Visible != 2 {
		t.Errorf("after Reset: %+v, want no working and the escape still swallowed", f)
	}
}

// TestStreamDetector_ChunkingInvariant feeds each real capture whole and
// byte by byte: the facts must agree.
func TestStreamDetector_ChunkingInvariant(t *testing.T) {
	for _, name := range screenFixtureNames(t, ".ansi") {
		data, err := os.ReadFile(filepath.Join(screenDir, name))
		if err != nil {
			t.Fatal(err)
		}
		whole := NewStreamDetector(nil).Feed(data)
		d := NewStreamDetector(nil)
		var sum respawn.ChunkFacts
		sum.Tokens = -1
		for i := range data {
			f := d.Feed(data[i : i+1])
			sum.Visible += f.Visible
			sum.Completion = sum.Completion || f.Completion
			sum.Working = f.Working
			if sum.Tokens < 0 {
				sum.Tokens = f.Tokens
			}
		}
		if sum != whole {
			t.Errorf("%s: byte by byte %+v, whole %+v", name, sum, whole)
		}
	}
}

func TestStreamDetector_UserPatterns(t *testing.T) {
	p, err := CompilePatterns([]respawn.PatternSpec{
		{Name: "frob", Kind: "working", Scope: "stream", Regexp: `Frobnicating`},
		{Name: "fin", Kind: "completion", Scope: "stream", Regexp: `All done in \d+s`},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := NewStreamDetector(p)
	if f := d.Feed([]byte("…Frobni")); f.Working {
		t.Error("working on half a word")
	}
	if f := d.Feed([]byte("cating")); !f.Working {
		t.Error("user working pattern across chunks not seen")
	}
	if f := d.Feed([]byte(" All done in 3s")); !f.Completion {
		t.Error("user completion pattern not seen")
	}
	if f := d.Feed([]byte(" bye")); f.Completion {
		t.Error("user completion reported again")
	}
}

func TestStreamDetector_NoAllocations(t *testing.T) {
	input := redrawStream(t)
	d := NewStreamDetector(nil)
	d.Feed(input)
	const chunk = 4096
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		end := min(i+chunk, len(input))
		d.Feed(input[i:end])
		if i = end; i == len(input) {
			i = 0
		}
	})
	if allocs != 0 {
		t.Errorf("Feed allocates %.1f times per chunk", allocs)
	}
}

// TestStreamMatchers_AgreeWithRegexps checks that each hand matcher accepts
// what its pattern's regexp accepts, on every row of the fixtures and on
// random text built from the pieces the patterns care about.
func TestStreamMatchers_AgreeWithRegexps(t *testing.T) {
	p := DefaultPatterns()
	var rows [][]byte
	for _, name := range screenFixtureNames(t, ".ansi") {
		rows = append(rows, bytes.Split(strippedFixture(t, name), []byte("\n"))...)
	}
	for _, s := range []string{"✻ Worked for 1m 2sa", "✻ Ag for 1s", "✻ Bang for 1s", "✻ Bng for 1s", "✻ Ing for 1s", "✻ A for 1s"} {
		rows = append(rows, []byte(s))
	}
	stream := append(p.streamWork, p.streamDone...)
	for _, row := range rows {
		for _, i := range stream {
			pat := &p.list[i]
			if s, _ := pat.find(row, 0); (s >= 0) != pat.Re.Match(row) {
				t.Errorf("%s on %q: hand matcher %v, regexp %v", pat.Name, row, s >= 0, !(s >= 0))
			}
		}
	}
	pieces := []string{"✻ ", "✶ ", "· ", "* ", "✳ ", "◐ ", "◒ ", "⠋", "⣷", "⠀", "…", " for ", "1", "23", "12345", "h", "m", "s", " ",
		"Baked", "Waiting", "Sautéed", "ing", "ng", "g", "Ab", "é", "É", "esc to interrupt", "esc to ", "retrying in ", "s · attempt ", "/", "\n", "x"}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 1, 12).Draw(t, "parts")
		text := []byte(strings.Join(parts, ""))
		for _, i := range stream {
			pat := &p.list[i]
			if s, _ := pat.find(text, 0); (s >= 0) != pat.Re.Match(text) {
				t.Fatalf("%s on %q: hand matcher %v, regexp %v", pat.Name, text, s >= 0, pat.Re.Match(text))
			}
		}
	})
}

// TestStreamDetector_Recordings replays the real Claude Code sessions
// recorded under testdata/ (with their hook markers): every prompt must
// show as working before its turn ends, and a Stop with no background task
// running must be followed by a completion line with nothing working after
// it (with one running, Claude prints "✻ Waiting for…" instead).
func TestStreamDetector_Recordings(t *testing.T) {
	casts := castRecordings()
	if len(casts) == 0 {
		t.Skip("no asciicast recordings under testdata/")
	}
	for _, path := range casts {
		d := NewStreamDetector(nil)
		var prompted, sawWork, stopped, sawDone bool
		var last respawn.ChunkFacts
		for _, ev := range castEvents(t, path) {
			switch {
			case ev.kind == "o":
				last = d.Feed([]byte(ev.data))
				sawWork = sawWork || last.Working
				sawDone = sawDone || stopped && last.Completion
			case strings.Contains(ev.data, `"hook_event_name":"UserPromptSubmit"`):
				prompted, sawWork, stopped, sawDone = true, false, false, false
			case strings.Contains(ev.data, `"hook_event_name":"Stop"`):
				if prompted && !sawWork {
					t.Errorf("%s at %.3fs: turn ended without working output", path, ev.at)
				}
				stopped = strings.Contains(ev.data, `"background_tasks":[]`)
			}
		}
		if stopped && (!sawDone || last.Working) {
			t.Errorf("%s: after the last Stop: completion seen %v, still working %v", path, sawDone, last.Working)
		}
	}
}
