package claudetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// typedTimeout bounds the wait for typed text to show in the input box.
const typedTimeout = 10 * time.Second

// SendKeys sends tmux key names to the pane, such as "Enter", "Escape",
// "BTab" (shift+tab), "Down" or "2".
func (s *Session) SendKeys(keys ...string) {
	s.t.Helper()
	s.Tmux(append([]string{"send-keys", "-t", s.pane}, keys...)...)
}

// Type enters text into Claude's input box and submits it: the text
// literally (send-keys -l; a bracketed paste when it has newlines), then,
// once the screen shows it, Enter as a command of its own. Enter sent in
// the same burst as the text would be taken as part of a paste and insert
// a newline instead of submitting.
func (s *Session) Type(text string) {
	s.t.Helper()
	if strings.Contains(text, "\n") {
		s.paste(text)
	} else {
		s.Tmux("send-keys", "-t", s.pane, "-l", text)
	}
	want := squeeze(lastRunes(text, 40))
	s.WaitFor(func(screen string) bool { return strings.Contains(squeeze(screen), want) },
		fmt.Sprintf("%q in the input box", text), typedTimeout)
	s.SendKeys("Enter")
}

// paste delivers text as one bracketed paste (paste-buffer -p) through a
// named buffer loaded from a file.
func (s *Session) paste(text string) {
	s.t.Helper()
	f := filepath.Join(s.root, "paste.txt")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		s.t.Fatalf("claudetest: write paste buffer: %v", err)
	}
	s.Tmux("load-buffer", "-b", "claudetest", f)
	s.Tmux("paste-buffer", "-p", "-d", "-b", "claudetest", "-t", s.pane)
}

// lastRunes returns the last n runes of s.
func lastRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[len(r)-n:]
	}
	return string(r)
}

// squeeze drops all white space, so text wrapped across rows of the input
// box still matches.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
