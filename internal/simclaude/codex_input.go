package simclaude

import (
	"time"
	"unicode/utf8"
)

// notePasteBurst marks typed text as a paste burst the way Codex does:
// several keys in one read, or a key less than pasteBurstGap after the
// previous one. tmux's send-keys -l delivers a whole string at once.
func (m *model) notePasteBurst(text string, now time.Time) {
	if utf8.RuneCountInString(text) > 1 || (!m.cx.lastTextAt.IsZero() && now.Sub(m.cx.lastTextAt) < pasteBurstGap) {
		m.cx.burstAt = now
	}
	m.cx.lastTextAt = now
}

// inPasteBurst reports whether an Enter now belongs to the paste burst.
func (m *model) inPasteBurst(now time.Time) bool {
	return !m.cx.burstAt.IsZero() && now.Sub(m.cx.burstAt) < pasteEnterWindow
}

// codexCtrlC is Ctrl+C or Ctrl+D at the composer: an empty one quits at
// once, a draft is cleared, a running turn is interrupted.
func (m *model) codexCtrlC(key string, now time.Time) {
	switch {
	case m.codexQuitKey(key):
		m.exit("other")
	case key == keyCtrlC && m.turn != nil:
		m.interrupt(now)
	case key == keyCtrlC:
		m.input = nil
	}
}

// codexStartPrompt runs a prompt or one of Codex's slash commands now.
func (m *model) codexStartPrompt(text string, announce bool, now time.Time) {
	switch firstWord(text) {
	case "/new":
		m.newChat("startup", now)
	case "/clear":
		m.newChat("clear", now)
	case "/exit", "/quit":
		m.exit("other")
	case "/compact":
		m.codexCompact(text, now)
	case "/init":
		m.codexInit(text, now)
	default:
		m.codexPrompt(text, announce, now)
	}
}
