package simclaude

import "time"

// copilotKey handles Copilot's own keys at the box and reports whether
// key was one: Ctrl+C clears the text and arms the exit, a second one
// exits; Ctrl+D on an empty box exits at once; Esc twice interrupts a
// working turn; Shift+Tab cycles the modes.
func (m *model) copilotKey(key string, now time.Time) bool {
	switch key {
	case keyCtrlC:
		if now.Before(m.ctrlCUntil) && len(m.input) == 0 {
			m.exit("user_exit")
			return true
		}
		m.input = nil
		m.ctrlCUntil = now.Add(ctrlCWindow)
	case keyCtrlD:
		if len(m.input) == 0 && m.turn == nil {
			m.exit("user_exit")
		}
	case keyEscape:
		// Esc on the idle box arms a rewind this look does not draw.
		if !m.busy() {
			return true
		}
		if m.cp.escArmed(now) {
			m.copilotInterrupt(now)
			return true
		}
		m.cp.escAt = now
	case keyShiftTab:
		m.cp.mode = (m.cp.mode + 1) % len(copilotModes)
	default:
		return false
	}
	return true
}

// copilotStartPrompt runs a prompt or one of Copilot's slash commands now.
func (m *model) copilotStartPrompt(text string, announce bool, now time.Time) {
	switch firstWord(text) {
	case "/clear", "/reset":
		m.copilotNewSession(copilotFresh, true)
	case "/new":
		m.copilotNewSession(copilotNew, false)
	case "/exit", "/quit":
		m.exit("user_exit")
	case "/compact":
		m.copilotCompact(text, now)
	case "/init":
		m.copilotInit(text, now)
	default:
		m.copilotPrompt(text, announce, now)
	}
}
