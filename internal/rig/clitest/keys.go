package clitest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// typedTimeout bounds the wait for typed text to show on screen.
const typedTimeout = 10 * time.Second

// SendKeys sends tmux key names to the pane, such as "Enter", "Escape",
// "BTab" (shift+tab), "Down" or "2".
func (p *Pane) SendKeys(keys ...string) {
	p.t.Helper()
	p.Tmux(append([]string{"send-keys", "-t", p.pane}, keys...)...)
}

// Type enters text into the CLI's input box and submits it: the text
// literally (send-keys -l; a bracketed paste when it has newlines), then,
// once the screen shows it and Config.EnterDelay has passed, Enter as a
// command of its own. Enter sent in the same burst as the text would be
// taken as part of a paste and insert a newline instead of submitting.
func (p *Pane) Type(text string) {
	p.t.Helper()
	sent := time.Now()
	if strings.Contains(text, "\n") {
		p.paste(text)
	} else {
		p.Tmux("send-keys", "-t", p.pane, "-l", text)
	}
	want := squeeze(lastRunes(text, 40))
	p.WaitFor(func(screen string) bool { return strings.Contains(squeeze(screen), want) },
		fmt.Sprintf("%q in the input box", text), typedTimeout)
	// Nothing on screen tells that a paste window is over: it is a timer
	// in the CLI.
	time.Sleep(time.Until(sent.Add(p.cfg.EnterDelay)))
	p.SendKeys("Enter")
}

// paste delivers text as one bracketed paste (paste-buffer -p) through a
// named buffer loaded from a file.
func (p *Pane) paste(text string) {
	p.t.Helper()
	f := filepath.Join(p.root, "paste.txt")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		p.t.Fatalf("%s: write paste buffer: %v", p.cfg.Pkg, err)
	}
	p.Tmux("load-buffer", "-b", p.cfg.Pkg, f)
	p.Tmux("paste-buffer", "-p", "-d", "-b", p.cfg.Pkg, "-t", p.pane)
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
