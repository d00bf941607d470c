package claude

import (
	"bytes"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/respawn"
)

const (
	// streamWindow is the stripped text the working patterns look back
	// over, in bytes: about 300 characters of Claude's TUI output, whose
	// box drawing and glyphs take three bytes each.
	streamWindow = 1024
	// streamLookback is the old text kept before new text, more than the
	// longest built-in match, so that a word written in pieces across
	// chunks is still found. User stream patterns search it again.
	streamLookback = 256
	// streamBuffer holds the window and the stripped text being read.
	streamBuffer = 16 << 10
)

// StreamDetector reads the raw byte stream of one pane: it strips ANSI
// escapes statefully, keeps a rolling window of the stripped text and
// matches the stream patterns there. It does not allocate per chunk once
// created (user stream patterns run as regexps and may). It is not safe for
// concurrent use; each pane's loop owns one.
type StreamDetector struct {
	p     *Patterns
	strip ansiStripper
	buf   [streamBuffer]byte
	n     int // bytes of buf in use

	// Offsets in the stripped stream since the detector was created.
	base     int64 // offset of buf[0]
	scanned  int64 // end of the text the matchers have seen
	counted  int64 // end of the text whose runes Visible has counted
	lastWork int64 // start of the newest working match, -1 if none
	lastDone int64 // start of the newest completion match, -1 if none
	anchors  anchorMarks
}

// NewStreamDetector returns a detector using the stream patterns of p, or
// of DefaultPatterns when p is nil.
func NewStreamDetector(p *Patterns) *StreamDetector {
	if p == nil {
		p = DefaultPatterns()
	}
	d := &StreamDetector{p: p, lastWork: -1, lastDone: -1, anchors: newAnchorMarks()}
	d.strip.last = '\n'
	return d
}

// Feed reads one chunk of the pane's output.
func (d *StreamDetector) Feed(chunk []byte) respawn.ChunkFacts {
	f := respawn.ChunkFacts{Tokens: -1}
	for len(chunk) > 0 {
		d.makeRoom()
		read, wrote := d.strip.strip(d.buf[d.n:], chunk)
		chunk = chunk[read:]
		d.n += wrote
		d.scan(&f)
	}
	f.Working = d.working()
	return f
}

// Reset forgets the rolling window and the matches seen, for example after
// codeman typed into the pane. An escape sequence being read stays being
// read: the byte stream goes on.
func (d *StreamDetector) Reset() {
	partial := int(d.base + int64(d.n) - d.counted) // bytes of a rune not yet complete
	copy(d.buf[:], d.buf[d.n-partial:d.n])
	d.base += int64(d.n - partial)
	d.n = partial
	d.scanned = d.base + int64(d.n)
	d.counted = d.base
	d.lastWork, d.lastDone = -1, -1
}

// makeRoom drops old text when the buffer is nearly full, keeping the
// window and the look-back.
func (d *StreamDetector) makeRoom() {
	const keep = streamWindow + streamLookback
	if len(d.buf)-d.n >= streamBuffer/4 {
		return
	}
	drop := d.n - keep
	copy(d.buf[:], d.buf[drop:d.n])
	d.n = keep
	d.base += int64(drop)
}

// scan matches the text stripped since the last scan.
func (d *StreamDetector) scan(f *respawn.ChunkFacts) {
	end := d.base + int64(d.n)
	if end == d.scanned {
		return
	}
	text := d.buf[:d.n]
	fresh := int(d.scanned - d.base) // text[fresh:] is new
	d.anchors.note(text[fresh:], d.scanned)
	for _, i := range d.p.streamWork {
		if p := &d.p.list[i]; p.find != nil && d.anchors.near(p.anchor, p.reach, d.scanned) {
			if s, _ := p.find(text, fresh); s >= 0 {
				d.lastWork = max(d.lastWork, d.base+int64(s))
			}
		}
	}
	for _, i := range d.p.streamDone {
		p := &d.p.list[i]
		if !d.anchors.near(p.anchor, p.reach, d.scanned) {
			continue
		}
		s, _ := p.findNew(text, fresh)
		// A line still being written ("✻ Baked for 1m" and then " 11s")
		// keeps its start: it is one completion, reported once.
		if s >= 0 && d.base+int64(s) != d.lastDone {
			f.Completion = true
			d.lastDone = max(d.lastDone, d.base+int64(s))
		}
	}
	if f.Tokens < 0 && d.anchors.near(anchorK, tokensReach, d.scanned) {
		f.Tokens = firstTokens(text, fresh)
	}
	f.Visible += d.countVisible()
	d.scanned = end
}

// working reports whether a working match lies in the window with no
// completion line after it, or a user stream working pattern matches the
// window.
func (d *StreamDetector) working() bool {
	windowStart := d.base + int64(d.n) - streamWindow
	if d.lastWork >= 0 && d.lastWork >= windowStart && d.lastWork > d.lastDone {
		return true
	}
	window := d.buf[max(0, d.n-streamWindow):d.n]
	for _, i := range d.p.workRegexp {
		if d.p.list[i].Re.Match(window) {
			return true
		}
	}
	return false
}

// countVisible counts the printable non-space runes stripped since the last
// count. A rune cut by the end of the text is counted with the next chunk.
func (d *StreamDetector) countVisible() int {
	n, rest := visibleRunes(d.buf[d.counted-d.base : d.n])
	d.counted = d.base + int64(d.n-rest)
	return n
}

// findNew returns the last match of a stream pattern in b that ends after
// b[from], or -1, -1. A user pattern is a regexp run over the new text and
// streamLookback bytes before it.
func (p *Pattern) findNew(b []byte, from int) (start, end int) {
	if p.find != nil {
		return p.find(b, from)
	}
	lo := max(0, from-streamLookback)
	all := p.Re.FindAllIndex(b[lo:], -1)
	for k := len(all) - 1; k >= 0; k-- {
		if lo+all[k][1] > from {
			return lo + all[k][0], lo + all[k][1]
		}
	}
	return -1, -1
}

// The hand matchers below accept exactly the language of their pattern's
// regexp (TestStreamMatchers_AgreeWithRegexps). Each returns the last match
// in b that ends after b[from], or -1, -1: the detector passes the text it
// has kept and where the new text starts, so only new text is searched and
// a matcher reads back into older text only to finish a match. Each finds a
// rare byte or literal with bytes.IndexByte or bytes.Index first, so most
// text is skipped at memory speed.

// The literals the matchers look for, each with the index of a byte that
// is rarer in Claude's output than its first, to find candidates by.
var (
	litBusy    = rareLiteral{[]byte("esc to interrupt"), 14} // 'p'
	litRetry   = rareLiteral{[]byte("retrying in "), 4}      // 'y'
	litFor     = rareLiteral{[]byte(" for "), 1}             // 'f'
	litTokens  = rareLiteral{[]byte("tokens"), 2}            // 'k'
	litAttempt = []byte("s · attempt ")
)

type rareLiteral struct {
	text []byte
	rare int
}

// index returns the first index of the literal in b, or -1.
func (l rareLiteral) index(b []byte) int {
	c := l.text[l.rare]
	for i := l.rare; i < len(b); {
		k := bytes.IndexByte(b[i:], c)
		if k < 0 {
			return -1
		}
		if s := i + k - l.rare; s+len(l.text) <= len(b) && bytes.Equal(b[s:s+len(l.text)], l.text) {
			return s
		}
		i += k + 1
	}
	return -1
}

// Longest stretch of a match after its anchor, for where searches start.
const (
	retryTail = len("retrying in 1234s · attempt 123/123")
	durTail   = len(" for 1234h 1234m 1234s 1234s") + utf8.UTFMax
)

// How far before the new text each matcher looks for its anchor byte, as
// its first search below starts.
var (
	statusReach     = 0
	busyReach       = len(litBusy.text) - 1 - litBusy.rare
	retryReach      = retryTail - litRetry.rare
	brailleReach    = 1
	circleReach     = 2 + utf8.UTFMax
	completionReach = durTail - litFor.rare
	tokensReach     = len(litTokens.text) - 1 - litTokens.rare
	maxReach        = max(statusReach, busyReach, retryReach, brailleReach, circleReach, completionReach, tokensReach)
)

// findStatusLine finds "✶ Sublimating…": a spinner glyph, a space, a
// capitalised word of at most 40 letters and U+2026.
func findStatusLine(b []byte, from int) (start, end int) {
	start, end = -1, -1
	for i := from; i < len(b); {
		k := bytes.IndexByte(b[i:], 0xa6) // last byte of "…", rare in other text
		if k < 0 {
			break
		}
		k += i
		i = k + 1
		if k >= 2 && b[k-2] == 0xe2 && b[k-1] == 0x80 {
			if s := statusStart(b[:k-2]); s >= 0 {
				start, end = s, k+1
			}
		}
	}
	return start, end
}

// statusStart returns where the status line that ends at the end of b
// starts, or -1.
func statusStart(b []byte) int {
	w, letters := len(b), 0
	for w > 0 && letters <= 40 {
		r, size := utf8.DecodeLastRune(b[:w])
		if !unicode.IsLetter(r) {
			break
		}
		w -= size
		letters++
	}
	if letters == 0 || letters > 40 || w == 0 || b[w-1] != ' ' {
		return -1
	}
	if r, _ := utf8.DecodeRune(b[w:]); !unicode.IsUpper(r) {
		return -1
	}
	g, size := utf8.DecodeLastRune(b[:w-1])
	switch g {
	case '·', '✢', '*', '✶', '✻', '✽', '✳':
		return w - 1 - size
	}
	return -1
}

// findBusyFooter finds "esc to interrupt".
func findBusyFooter(b []byte, from int) (start, end int) {
	start, end = -1, -1
	for i := max(0, from-len(litBusy.text)+1); i < len(b); {
		k := litBusy.index(b[i:])
		if k < 0 {
			break
		}
		start, end = i+k, i+k+len(litBusy.text)
		i = end
	}
	return start, end
}

// findAPIRetry finds "retrying in 5s · attempt 1/10".
func findAPIRetry(b []byte, from int) (start, end int) {
	start, end = -1, -1
	for i := max(0, from-retryTail); i < len(b); {
		k := litRetry.index(b[i:])
		if k < 0 {
			break
		}
		k += i
		i = k + 1
		if e := retryEnd(b, k+len(litRetry.text)); e > from {
			start, end = k, e
		}
	}
	return start, end
}

// retryEnd returns the end of "5s · attempt 1/10" at j, or -1.
func retryEnd(b []byte, j int) int {
	n := digitRun(b, j)
	if n < 1 || n > 4 || !bytes.HasPrefix(b[j+n:], litAttempt) {
		return -1
	}
	j += n + len(litAttempt)
	n = digitRun(b, j)
	if n < 1 || n > 3 || j+n >= len(b) || b[j+n] != '/' {
		return -1
	}
	j += n + 1
	n = digitRun(b, j)
	if n < 1 {
		return -1
	}
	return j + min(n, 3)
}

// findBrailleSpinner finds a frame of the braille spinners ⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏
// and ⣾⣽⣻⢿⡿⣟⣯⣷ (U+2800..U+28FF are E2 A0..A3 xx in UTF-8), by its rare
// second byte.
func findBrailleSpinner(b []byte, from int) (start, end int) {
	start = -1
	for second := byte(0xa0); second <= 0xa3; second++ {
		for i := max(1, from-1); i < len(b)-1; {
			k := bytes.IndexByte(b[i:len(b)-1], second)
			if k < 0 {
				break
			}
			k += i
			i = k + 1
			if b[k-1] == 0xe2 && isBrailleFrame(second, b[k+1]) {
				start = max(start, k-1)
			}
		}
	}
	if start < 0 {
		return -1, -1
	}
	return start, start + 3
}

func isBrailleFrame(second, third byte) bool {
	switch second {
	case 0xa0: // ⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏
		switch third {
		case 0x8b, 0x99, 0xb9, 0xb8, 0xbc, 0xb4, 0xa6, 0xa7, 0x87, 0x8f:
			return true
		}
	case 0xa1, 0xa2: // ⡿ ⢿
		return third == 0xbf
	case 0xa3: // ⣾⣽⣻⣟⣯⣷
		switch third {
		case 0xbe, 0xbd, 0xbb, 0x9f, 0xaf, 0xb7:
			return true
		}
	}
	return false
}

// findCircleSpinner finds one of ◐◓◑◒ (E2 97 90..93) followed by a space
// and a capital letter.
func findCircleSpinner(b []byte, from int) (start, end int) {
	start, end = -1, -1
	for i := max(1, from-2-utf8.UTFMax); i < len(b); {
		k := bytes.IndexByte(b[i:], 0x97)
		if k < 0 {
			break
		}
		k += i
		i = k + 1
		if k+3 >= len(b) || b[k-1] != 0xe2 || b[k+1] < 0x90 || b[k+1] > 0x93 || b[k+2] != ' ' {
			continue
		}
		if r, size := utf8.DecodeRune(b[k+3:]); unicode.IsUpper(r) && k+3+size > from {
			start, end = k-1, k+3+size
		}
	}
	return start, end
}

// findCompletion finds "✻ Baked for 1m 11s": ✻, a capitalised word that
// does not end in "ing", " for " and a duration, then the end of the text
// or a rune that is neither letter nor digit. It looks for " for " and
// reads the verb backwards, so only the duration's length of old text is
// searched again.
func findCompletion(b []byte, from int) (start, end int) {
	start, end = -1, -1
	for i := max(0, from-durTail); i < len(b); {
		k := litFor.index(b[i:])
		if k < 0 {
			break
		}
		k += i
		i = k + 1
		s := completionStart(b[:k])
		if s < 0 {
			continue
		}
		if e := durationEnd(b, k+len(litFor.text)); e > from {
			start, end = s, e
		}
	}
	return start, end
}

// completionStart returns where "✻ Verb" ending at the end of b starts, or
// -1. The verb is a capital and at most 39 more letters, and must not end
// in "ing" ("✻ Waiting for 5s" is no finished turn).
func completionStart(b []byte) int {
	var last [3]rune // the last three letters, last first
	w, letters := len(b), 0
	for w > 0 && letters <= 40 {
		r, size := utf8.DecodeLastRune(b[:w])
		if !unicode.IsLetter(r) {
			break
		}
		if letters < len(last) {
			last[letters] = r
		}
		w -= size
		letters++
	}
	if letters == 0 || letters > 40 || !bytes.HasSuffix(b[:w], []byte("✻ ")) {
		return -1
	}
	if r, _ := utf8.DecodeRune(b[w:]); !unicode.IsUpper(r) {
		return -1
	}
	if letters > 1 && last[0] == 'g' {
		// The regexp's alternatives reject a final "g" after "n" after
		// "i", and words too short to hold a letter before those.
		if letters == 2 || last[1] == 'n' && (letters == 3 || last[2] == 'i') {
			return -1
		}
	}
	return w - len("✻ ")
}

// durationEnd returns the end of "1h 2m 3s" at j when a valid end follows
// it, trying shorter durations as the regexp backtracks, or -1.
func durationEnd(b []byte, j int) int {
	var ends [4]int
	groups := 0
	for groups < len(ends) {
		at := j
		if groups > 0 {
			if at >= len(b) || b[at] != ' ' {
				break
			}
			at++
		}
		n := digitRun(b, at)
		if n < 1 || n > 4 || at+n >= len(b) || !isDurationUnit(b[at+n]) {
			break
		}
		j = at + n + 1
		ends[groups] = j
		groups++
	}
	for g := groups - 1; g >= 0; g-- {
		e := ends[g]
		if e == len(b) {
			return e
		}
		if r, _ := utf8.DecodeRune(b[e:]); !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			return e
		}
	}
	return -1
}

func isDurationUnit(c byte) bool { return c == 'h' || c == 'm' || c == 's' }

// digitRun returns how many ASCII digits start b[j:].
func digitRun(b []byte, j int) int {
	n := 0
	for j+n < len(b) && b[j+n] >= '0' && b[j+n] <= '9' {
		n++
	}
	return n
}

// firstTokens returns the first token counter ("↓ 1.2k tokens") in b that
// ends after b[from], or -1. It reads what
// (\d+(?:\.\d+)?)[ \t]*([kKmM])?[ \t]*tokens matches, as the original did.
func firstTokens(b []byte, from int) int64 {
	for i := max(0, from-len(litTokens.text)+1); i < len(b); {
		k := litTokens.index(b[i:])
		if k < 0 {
			return -1
		}
		k += i
		i = k + 1
		if v, ok := tokensBefore(b[:k]); ok {
			return v
		}
	}
	return -1
}

// tokensBefore reads the number and multiplier that end b ("1.2k ").
func tokensBefore(b []byte) (int64, bool) {
	j := skipBlanksBack(b, len(b))
	mult := 1.0
	if j > 0 {
		switch b[j-1] {
		case 'k', 'K':
			mult, j = 1e3, skipBlanksBack(b, j-1)
		case 'm', 'M':
			mult, j = 1e6, skipBlanksBack(b, j-1)
		}
	}
	whole := j
	for whole > 0 && b[whole-1] >= '0' && b[whole-1] <= '9' {
		whole--
	}
	if whole == j {
		return 0, false
	}
	num, frac := b[whole:j], []byte(nil)
	if whole >= 2 && b[whole-1] == '.' && b[whole-2] >= '0' && b[whole-2] <= '9' {
		frac = num
		j = whole - 1
		for whole = j; whole > 0 && b[whole-1] >= '0' && b[whole-1] <= '9'; whole-- {
		}
		num = b[whole:j]
	}
	return int64(math.Round((decimal(num) + fraction(frac)) * mult)), true
}

func skipBlanksBack(b []byte, j int) int {
	for j > 0 && (b[j-1] == ' ' || b[j-1] == '\t') {
		j--
	}
	return j
}

// decimal reads ASCII digits; beyond 15 digits precision does not matter.
func decimal(d []byte) float64 {
	v := 0.0
	for _, c := range d {
		v = v*10 + float64(c-'0')
	}
	return v
}

// fraction reads the digits after a decimal point.
func fraction(d []byte) float64 {
	v, scale := 0.0, 1.0
	for _, c := range d[:min(len(d), 12)] {
		v = v*10 + float64(c-'0')
		scale *= 10
	}
	return v / scale
}
