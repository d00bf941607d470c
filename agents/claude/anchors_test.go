package claude

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// anchorPieces builds text that the stream matchers care about, escapes
// that the stripper turns into separators, and filler.
var anchorPieces = []string{"✻ ", "✶ ", "· ", "* ", "◐ ", "◒ ", "⠋", "⣷", "⡿", "⠀", "…", " for ", "1", "23", "12345",
	".5", "k", "K", "m", "h", "s", " ", "\t", "Baked", "Waiting", "Sautéed", "ing", "Ab", "É", "esc to interrupt",
	"esc to ", "interrupt", "retrying in ", "s · attempt ", "/", " tokens", "tokens", "↓ ", "\n", "\r", "x",
	"\x1b[38;5;174m", "\x1b[39m", "\x1b[12G", "\x1b[2C", "\x1b[48;3H", "\x1b[1B", "\x1b[?2026h", "\x1b]0;t\x07", "─────"}

// anchorMatches are whole matches of the gated matchers.
var anchorMatches = []string{"✶ Sublimating…", "esc to interrupt", "retrying in 5s · attempt 1/10",
	"retrying in 1234s · attempt 123/123", "⠋", "⣷", "◐ Working", "✻ Baked for 1m 11s", "✻ Sautéed for 1h 2m 3s 4s ",
	"✻ Churned for 0s · done", "↓ 1.2k tokens", "12345 \t tokens", "7K tokens"}

// gatedMatcher is a search the detector skips when its anchor is not near.
type gatedMatcher struct {
	name   string
	find   func(b []byte, from int) bool
	anchor anchor
	reach  int
}

func gatedMatchers(t *testing.T) []gatedMatcher {
	p := DefaultPatterns()
	var gates []gatedMatcher
	for _, i := range append(slices.Clone(p.streamWork), p.streamDone...) {
		q := p.list[i]
		if q.find == nil {
			continue
		}
		if q.anchor == anchorNone {
			t.Errorf("%s: built-in stream matcher without an anchor", q.Name)
		}
		gates = append(gates, gatedMatcher{q.Name, func(b []byte, from int) bool {
			s, _ := q.find(b, from)
			return s >= 0
		}, q.anchor, q.reach})
	}
	return append(gates, gatedMatcher{"token counter", func(b []byte, from int) bool {
		return firstTokens(b, from) >= 0
	}, anchorK, tokensReach})
}

// TestAnchors_WithinReach checks the reach of every gated matcher: any
// match it returns for new text b[from:] has a byte of its anchor class at
// most reach bytes before from. The new text starts at every byte of
// every match, then at random places of random text around one.
func TestAnchors_WithinReach(t *testing.T) {
	gates := gatedMatchers(t)
	check := func(t interface{ Fatalf(string, ...any) }, text []byte, from int) {
		for _, g := range gates {
			if !g.find(text, from) {
				continue
			}
			if r := text[max(0, from-g.reach):]; !slices.ContainsFunc(r, func(c byte) bool { return anchorOf[c] == g.anchor }) {
				t.Fatalf("%s matches %q from %d, but no anchor byte lies in %q", g.name, text, from, r)
			}
		}
	}
	for _, match := range anchorMatches {
		for _, after := range []string{"", " ", "\n", "x"} {
			for cut := range len(match) + 1 {
				check(t, []byte("ab "+match+after), len("ab ")+cut)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		before := StripANSI(strings.Join(rapid.SliceOfN(rapid.SampledFrom(anchorPieces), 0, 8).Draw(t, "before"), ""))
		match := rapid.SampledFrom(anchorMatches).Draw(t, "match")
		after := StripANSI(strings.Join(rapid.SliceOfN(rapid.SampledFrom(anchorPieces), 0, 8).Draw(t, "after"), ""))
		text := []byte(before + match + after)
		// The new text starts inside the match, where the least of it is
		// left to find the anchor in.
		check(t, text, len(before)+rapid.IntRange(0, len(match)).Draw(t, "cut"))
	})
}

// ungatedPatterns is the built-in table with every matcher run on every
// piece of text, as the reference for the gates.
func ungatedPatterns() *Patterns {
	list := DefaultPatterns().List()
	for i := range list {
		list[i].anchor = anchorNone
	}
	return newPatterns(list)
}

// TestAnchors_SameFacts feeds every match cut at every byte, then random
// streams cut at random with long pieces and resets among them, to a
// detector and to one whose matchers all run on every chunk: every chunk's
// facts must agree.
func TestAnchors_SameFacts(t *testing.T) {
	ungated := ungatedPatterns()
	for _, match := range anchorMatches {
		for cut := range len(match) + 1 {
			gated, ref := NewStreamDetector(nil), NewStreamDetector(ungated)
			for _, chunk := range []string{"ab " + match[:cut], match[cut:] + " "} {
				if got, want := gated.Feed([]byte(chunk)), ref.Feed([]byte(chunk)); got != want {
					t.Fatalf("%q cut at %d, chunk %q: %+v, every matcher run: %+v", match, cut, chunk, got, want)
				}
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		pieces := append(slices.Clone(anchorPieces), anchorMatches...)
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 1, 200).Draw(t, "parts")
		stream := []byte(strings.Join(parts, ""))
		gated, ref := NewStreamDetector(nil), NewStreamDetector(ungated)
		for len(stream) > 0 {
			// Mostly short chunks, which cut matches; now and then one
			// too long to be read for anchors.
			n := rapid.IntRange(1, 12).Draw(t, "chunk")
			if rapid.IntRange(0, 7).Draw(t, "long") == 0 {
				n = rapid.IntRange(anchorScanMax, 2*anchorScanMax+maxReach).Draw(t, "long chunk")
			}
			n = min(n, len(stream))
			chunk := stream[:n]
			stream = stream[n:]
			if got, want := gated.Feed(chunk), ref.Feed(chunk); got != want {
				t.Fatalf("chunk %q: %+v, every matcher run: %+v", chunk, got, want)
			}
			if rapid.IntRange(0, 9).Draw(t, "reset") == 0 {
				gated.Reset()
				ref.Reset()
			}
		}
	})
}

// TestAnchors_SameFactsOnRecordings does the same with the recorded
// sessions, one Feed per output event.
func TestAnchors_SameFactsOnRecordings(t *testing.T) {
	casts := castRecordings()
	if len(casts) == 0 {
		t.Skip("no asciicast recordings under testdata/")
	}
	ungated := ungatedPatterns()
	for _, path := range casts {
		gated, ref := NewStreamDetector(nil), NewStreamDetector(ungated)
		for _, ev := range castEvents(t, path) {
			if ev.kind != "o" {
				continue
			}
			if got, want := gated.Feed([]byte(ev.data)), ref.Feed([]byte(ev.data)); got != want {
				t.Fatalf("%s at %.3fs: %+v, every matcher run: %+v", path, ev.at, got, want)
			}
		}
	}
}
