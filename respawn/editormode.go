package respawn

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// EditorMode is the mode of the prompt box's key bindings. Claude Code
// with `editorMode: "vim"` edits the box like vim: in INSERT mode typed
// letters are text and the footer says "-- INSERT --"; in NORMAL and
// VISUAL mode they are editing commands ("write a" moves a word, replaces
// a character and appends: the box receives " brief progress summary").
type EditorMode string

// The editor modes. One screen shows only Insert and Visual, by their
// footer indicator; NORMAL mode shows none, exactly like a box with vim
// off, so Normal comes only from a PromptReader that saw vim's indicator
// in the pane before.
const (
	EditorPlain  EditorMode = ""       // no mode indicator: letters are text, unless a PromptReader knows vim is on
	EditorInsert EditorMode = "insert" // "-- INSERT --": letters are text
	EditorVisual EditorMode = "visual" // "-- VISUAL --" or "-- VISUAL LINE --": letters are commands
	EditorNormal EditorMode = "normal" // vim on and no indicator: letters are commands
)

// LettersAreCommands reports a mode in which typed letters edit the box
// instead of going into it.
func (m EditorMode) LettersAreCommands() bool { return m == EditorVisual || m == EditorNormal }

// Vim reports a mode that only vim key bindings show.
func (m EditorMode) Vim() bool { return m != EditorPlain }

// PromptReader reads a pane's prompt box for Submit: the agent's Classify,
// plus what one screen cannot show. Claude Code's vim NORMAL mode has no
// indicator, so the reader remembers whether the pane ever showed one
// (INSERT shows from the start and while Claude works): a box with no
// indicator in a pane that showed one is in NORMAL mode. The terminal
// calls Observe with every screen it captures, so the reader sees what the
// controller sees. It is safe for concurrent use.
type PromptReader struct {
	classify func(Screen) ScreenFacts

	mu  sync.Mutex
	vim bool // a vim mode indicator was seen and vim was not found off since
}

// NewPromptReader returns a reader over an agent's Classify.
func NewPromptReader(classify func(Screen) ScreenFacts) *PromptReader {
	return &PromptReader{classify: classify}
}

// Observe notes a screen of the pane.
func (r *PromptReader) Observe(s Screen) {
	if r == nil {
		return
	}
	f := r.classify(s)
	if f.PromptBox && f.EditorMode.Vim() {
		r.mu.Lock()
		r.vim = true
		r.mu.Unlock()
	}
}

// Read classifies s, with EditorNormal for a box without an indicator in a
// pane that showed vim's.
func (r *PromptReader) Read(s Screen) ScreenFacts {
	f := r.classify(s)
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case !f.PromptBox:
	case f.EditorMode.Vim():
		r.vim = true
	case r.vim:
		f.EditorMode = EditorNormal
	}
	return f
}

// vimOff forgets vim: a key that enters INSERT mode was typed as text.
func (r *PromptReader) vimOff() {
	r.mu.Lock()
	r.vim = false
	r.mu.Unlock()
}

// pastedPlaceholder matches how the agents show a long paste in the box
// instead of its text: Claude Code's "[Pasted text #1 +5 lines]" (the
// count is of the newlines), Codex's "[Pasted Content 1234 chars]".
var pastedPlaceholder = regexp.MustCompile(`^\[Pasted text #\d+(?: \+(\d+) lines)?\]$|^\[Pasted Content (\d+) chars\]$`)

// boxShows reports whether the prompt box's input (ScreenFacts.Input)
// shows text and nothing else. White space is left out of the comparison:
// the box wraps long text across rows.
func boxShows(input, text string) bool {
	if squeeze(input) == squeeze(text) {
		return true
	}
	m := pastedPlaceholder.FindStringSubmatch(strings.TrimSpace(input))
	switch {
	case m == nil:
		return false
	case m[1] != "":
		return m[1] == strconv.Itoa(strings.Count(text, "\n"))
	case m[2] != "":
		return m[2] == strconv.Itoa(len([]rune(text)))
	}
	return true
}

// isPlaceholder reports a box that shows a paste's placeholder, which one
// Backspace deletes as a whole.
func isPlaceholder(input string) bool {
	return pastedPlaceholder.MatchString(strings.TrimSpace(input))
}

// squeeze drops all white space.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
