package codextest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// typedTimeout bounds the wait for typed text to show in the composer.
const typedTimeout = 10 * time.Second

// SendKeys sends tmux key names to the pane, such as "Enter", "Escape",
// "Down" or "y".
func (s *Session) SendKeys(keys ...string) {
	s.t.Helper()
	s.Tmux(append([]string{"send-keys", "-t", s.pane}, keys...)...)
}

// pasteEnterWindow is how long after a burst of keys Codex takes Enter for
// a newline in the pasted text rather than a submit (120 ms in 0.171.0,
// docs/codex.md), with a margin.
const pasteEnterWindow = 200 * time.Millisecond

// Type enters text into Codex's composer and submits it: the text
// literally (send-keys -l; a bracketed paste when it has newlines), then,
// once the screen shows it and the paste window has passed, Enter as a
// command of its own. Codex takes keys that arrive less than 8 ms apart
// for a paste, and an Enter soon after one inserts a newline.
func (s *Session) Type(text string) {
	s.t.Helper()
	sent := time.Now()
	if strings.Contains(text, "\n") {
		s.paste(text)
	} else {
		s.Tmux("send-keys", "-t", s.pane, "-l", text)
	}
	want := squeeze(lastRunes(text, 40))
	s.WaitFor(func(screen string) bool { return strings.Contains(squeeze(screen), want) },
		fmt.Sprintf("%q in the composer", text), typedTimeout)
	// Nothing on screen tells that the window is over: it is a timer in
	// Codex.
	time.Sleep(time.Until(sent.Add(pasteEnterWindow)))
	s.SendKeys("Enter")
}

// paste delivers text as one bracketed paste (paste-buffer -p) through a
// named buffer loaded from a file.
func (s *Session) paste(text string) {
	s.t.Helper()
	f := filepath.Join(s.root, "paste.txt")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		s.t.Fatalf("codextest: write paste buffer: %v", err)
	}
	s.Tmux("load-buffer", "-b", "codextest", f)
	s.Tmux("paste-buffer", "-p", "-d", "-b", "codextest", "-t", s.pane)
}

// lastRunes returns the last n runes of s.
func lastRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[len(r)-n:]
	}
	return string(r)
}

// squeeze drops all white space, so text wrapped across rows of the
// composer still matches.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
