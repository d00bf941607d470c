package simclaude

import (
	"path/filepath"
	"strings"
	"time"
)

// The looks of Options.Look: the CLI the session draws itself as.
const (
	LookClaude  = "claude"  // Claude Code 2.1.328
	LookCodex   = "codex"   // the OpenAI Codex CLI 0.171.0
	LookCopilot = "copilot" // the GitHub Copilot CLI 1.0.102
	// LookOpenCode is OpenCode 1.18.33.
	LookOpenCode = "opencode"
)

// Codex's key timing (docs/codex.md): keys less than pasteBurstGap apart
// are a paste, and an Enter within pasteEnterWindow of such a burst is a
// newline in it, not a submit.
const (
	pasteBurstGap    = 8 * time.Millisecond
	pasteEnterWindow = 120 * time.Millisecond
	codexTitleFrame  = 100 * time.Millisecond // the title spinner's frame
	codexBlink       = time.Second            // the approval title's blink
	// codexTitleAfter is how long after a session's first prompt Codex's
	// side request names the task.
	codexTitleAfter = 300 * time.Millisecond
)

// codexState is what only the Codex look keeps.
type codexState struct {
	signals     []string  // OSC 7501 notices and BELs for after the next frame
	titleAt     time.Time // when the session's task title is named; zero before its first turn
	sessionOpen bool      // SessionStart fired: Codex fires it with a session's first prompt
	source      string    // SessionStart source of the next session
	sessionAt   time.Time // when the session began, for its rollout path
	requestID   string    // the model request under way, "" when none
	burstAt     time.Time // the last key of a paste burst
	lastTextAt  time.Time // the last typed text
}

func (m *model) codex() bool   { return m.cfg.Look == LookCodex }
func (m *model) copilot() bool { return m.cfg.Look == LookCopilot }
func (m *model) claude() bool  { return m.cfg.Look == LookClaude }

// taskTitle is the session's task title once it is named, "" before.
func (m *model) taskTitle(now time.Time) string {
	if m.cx.titleAt.IsZero() || now.Before(m.cx.titleAt) {
		return ""
	}
	return codexTaskTitle
}

// commands are the slash commands of the look.
func (m *model) commands() []slashCommand {
	switch {
	case m.codex():
		return codexSlashCommands
	case m.copilot():
		return nil // Copilot's Enter runs what was typed
	case m.opencode():
		return nil // OpenCode's popup is opencodePopups
	}
	return slashCommands
}

// signal queues Codex's OSC 7501 state notice, "state=<state>:app=codex"
// and extra (":kind=permission" for an approval); the Claude look writes
// none.
func (m *model) signal(state, extra string) {
	if !m.codex() {
		return
	}
	m.cx.signals = append(m.cx.signals, "\x1b]7501;state="+state+":app=codex"+extra+"\x1b\\")
}

// bell queues the BEL Codex rings when a turn is done or asks approval.
func (m *model) bell() {
	if m.codex() {
		m.cx.signals = append(m.cx.signals, "\a")
	}
}

// displayDir is the project directory as Codex shows it: ~/proj.
func (m *model) displayDir() string {
	if m.home != "" {
		if rel, err := filepath.Rel(m.home, m.cfg.Cwd); err == nil && !strings.HasPrefix(rel, "..") {
			if rel == "." {
				return "~"
			}
			return "~/" + rel
		}
	}
	return m.cfg.Cwd
}

// title is the pane title Codex sets: "Fake task | proj", a braille
// spinner in front while a turn runs, "[ ! ] Action Required | …" with
// the bracket blinking while it asks approval; Copilot's names the
// session's first prompt. Claude's look sets none.
func (m *model) title(now time.Time) string {
	if m.copilot() {
		return m.copilotTitle()
	}
	if !m.codex() {
		return ""
	}
	t := filepath.Base(m.cfg.Cwd)
	if title := m.taskTitle(now); title != "" {
		t = title + " | " + t
	}
	switch {
	case m.dialog != nil:
		mark := "!"
		if int(now.Sub(m.turn.started)/codexBlink)%2 == 1 {
			mark = "."
		}
		return "[ " + mark + " ] Action Required | " + t
	case m.turn != nil:
		frame := int(now.Sub(m.turn.started) / codexTitleFrame)
		return codexSpinner[frame%len(codexSpinner)] + " " + t
	}
	return t
}
