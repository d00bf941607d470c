package claude

import "math"

// Every built-in stream matcher looks for one byte that each of its matches
// contains (its anchor) with bytes.IndexByte, starting a fixed distance
// before the new text (its reach) so that a match begun in older text is
// found. The detector notes in one pass over each piece of new text where
// every anchor byte last occurred; a matcher whose anchor did not occur
// within its reach of the new text cannot return a match, and is not run.
// Most output of Claude's TUI is short redraws that hold none of the
// anchors, so most Feeds run no matcher at all. A long piece of new text
// holds most anchors anyway and is searched at memory speed, so it is not
// read byte by byte: all matchers run on it.

// anchor is a class of bytes one or more matchers start from.
type anchor uint8

const (
	anchorNone     anchor = iota // the matcher always runs
	anchorEllipsis               // A6, last byte of "…" (status line)
	anchorP                      // 'p' of "esc to interrupt"
	anchorY                      // 'y' of "retrying in "
	anchorBraille                // A0..A3, second byte of U+2800..U+28FF
	anchorCircle                 // 97, second byte of ◐◓◑◒
	anchorF                      // 'f' of " for " (completion line)
	anchorK                      // 'k' of "tokens"
	anchorCount
)

// anchorOf maps each byte to its anchor class.
var anchorOf = func() (t [256]anchor) {
	t[0xa6] = anchorEllipsis
	t[litBusy.text[litBusy.rare]] = anchorP
	t[litRetry.text[litRetry.rare]] = anchorY
	for c := 0xa0; c <= 0xa3; c++ {
		t[c] = anchorBraille
	}
	t[0x97] = anchorCircle
	t[litFor.text[litFor.rare]] = anchorF
	t[litTokens.text[litTokens.rare]] = anchorK
	return t
}()

// anchorMarks holds where in the stripped stream each anchor class last
// occurred. Offsets count from the detector's creation and survive Reset
// and dropped text, so a mark can only be older than the text it names,
// never newer: a stale mark runs a matcher for nothing, and no match is
// missed.
type anchorMarks struct {
	last [anchorCount]int64
	all  bool // the newest piece was long: every matcher runs on it
}

// anchorScanMax is the longest new text whose anchors are read byte by
// byte. Up to about this length a byte loop costs less than the matchers'
// searches it saves.
const anchorScanMax = 128

// neverSeen is the mark of a class that has not occurred.
const neverSeen = math.MinInt64

func newAnchorMarks() anchorMarks {
	var a anchorMarks
	for i := range a.last {
		a.last[i] = neverSeen
	}
	return a
}

// note records the anchors of b, new text that starts at offset at. Of a
// piece longer than anchorScanMax only the last maxReach bytes are read,
// all that the matchers will reach back to from later text.
func (a *anchorMarks) note(b []byte, at int64) {
	a.all = len(b) > anchorScanMax
	if a.all {
		skip := len(b) - maxReach
		b, at = b[skip:], at+int64(skip)
	}
	for i, c := range b {
		if k := anchorOf[c]; k != anchorNone {
			a.last[k] = at + int64(i)
		}
	}
}

// near reports whether a matcher anchored on k with the given reach may
// find a match ending in the new text just noted, which starts at offset
// fresh.
func (a *anchorMarks) near(k anchor, reach int, fresh int64) bool {
	return a.all || k == anchorNone || a.last[k] >= fresh-int64(reach)
}
