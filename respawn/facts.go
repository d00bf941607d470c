package respawn

import "hash/fnv"

// What an agent reads: ScreenFacts from a rendered screen, ChunkFacts from
// a chunk of output. The agent fills them in, the core weighs them.

// ScreenFacts is what a rendered screen shows. No single fact decides:
// the controller weighs them with hooks, silence and AI checks.
type ScreenFacts struct {
	// Working: the screen shows the agent at work (Claude Code's status
	// line, busy footer or API retry line).
	Working bool
	// Completion: the newest status row of the transcript is a completion
	// line, no prompt was echoed after it, and the footer is idle.
	Completion bool
	// BackgroundWait is the number of background agents the finished turn
	// waits for ("✻ Waiting for 1 background agent to finish"), under the
	// same conditions as Completion.
	BackgroundWait int
	// PlanMenu: the plan approval menu with an accepting option under the
	// selector, the one dialog codeman may accept (with Enter).
	PlanMenu   bool
	Question   bool // an AskUserQuestion picker
	Permission bool // a tool permission prompt
	Dialog     bool // any other dialog a person must answer
	// PromptBox: the prompt box is on screen. It may be there while the
	// agent works too (Claude Code's is), so it is never evidence of idle
	// by itself.
	PromptBox bool
	// Input is the text in the prompt box, "" when it is empty or shows a
	// placeholder. Typing into a box that holds text would append to it.
	Input      string
	APIError   string // the latest turn's API error, "" if none
	UsageLimit string // the latest turn's usage-limit message, for Agent.FindUsageLimit; "" if none
	// AutoContinue is what the screen says of the agent's own continue
	// at a usage limit (Claude Code's: the footer's live rows first, else
	// the latest turn's newest notice). Once it fired, the limit lines
	// above its notice no longer count as UsageLimit.
	AutoContinue AutoContinue
	Tokens       int64 // token counter of the status line, -1 if none
	// Content is a hash of the rows that change only when something
	// happens (the transcript, the prompt box), leaving out those that
	// redraw by themselves (the footer, where a status line may print a
	// clock every second). Two screens with the same Content show the same
	// thing to a person; 0 means the agent cannot tell.
	Content  uint64
	Evidence []string // "pattern-name: matched row text", for explain

	// BlockerText is the screen row that shows the question, permission
	// prompt or dialog, for a person.
	BlockerText string

	// DialogName names what made Dialog true (a pattern's or a rule's
	// name, such as "limit_menu"), for Blocker and the need's reason.
	DialogName string

	// EditorMode is the box's vim mode as its indicator shows it
	// (EditorMode); EditorPlain without one.
	EditorMode EditorMode

	// Ask is the question, permission prompt or menu on screen with its
	// options, as a person answers it; zero when there is none or the
	// agent cannot read its options.
	Ask Ask
}

// Blocker returns a short reason when a person must answer what is on
// screen, "" otherwise. A plan approval menu is no blocker: codeman may
// accept it.
func (f ScreenFacts) Blocker() string {
	switch {
	case f.Question:
		return "question"
	case f.Permission:
		return "permission prompt"
	case f.Dialog && f.DialogName != "":
		return "dialog (" + f.DialogName + ")"
	case f.Dialog:
		return "dialog"
	}
	return ""
}

// ChunkFacts is what one chunk of a pane's output says. The stream tells
// when something changed; the rendered screen (Agent.Classify) tells what.
type ChunkFacts struct {
	Visible int // printable non-space runes after ANSI stripping
	// Working: the output says the agent is at work (for Claude Code, a
	// stream working pattern matched in the rolling window and no
	// completion line came after it).
	Working    bool
	Completion bool  // a turn's end was announced in this chunk
	Tokens     int64 // token counter seen in this chunk, -1 if none
	// Cosmetic: the chunk changed nothing a person reads and reported
	// nothing, such as a window title that blinks while a dialog waits.
	// It is no output: the pane's silence goes on.
	Cosmetic bool
}

// AutoContinue is what the screen says of the agent's own continue at a
// usage limit. Claude Code has one (its setting autoContinueAtUsageLimit,
// on by default): once the limit resets it sends a turn of its own, 30 to
// 90 s after the reset time. codeman types its resume prompt only when the
// agent will not.
type AutoContinue int

const (
	// AutoContinueNone: the screen says nothing of it (an older CLI, a
	// limit menu, or no limit at all).
	AutoContinueNone AutoContinue = iota
	// AutoContinueArmed: Claude Code will continue by itself. The two
	// rows under the prompt box say so until it does:
	// "Continuing automatically at 3pm · Esc to cancel", after the reset
	// "Continuing shortly · Esc to cancel".
	AutoContinueArmed
	// AutoContinueFired: Claude Code continued by itself
	// ("● Usage limit reset · Continuing automatically"); the limit lines
	// above that notice are history.
	AutoContinueFired
	// AutoContinueStale: the limit reset while Claude Code could not act
	// (the machine slept through it); it waits for a prompt
	// ("Usage limit has reset · Press enter to continue").
	AutoContinueStale
	// AutoContinueOff: cancelled (Esc), turned off or stopped; Claude Code
	// will not continue by itself ("● Automatic continue cancelled · …").
	AutoContinueOff
)

var autoContinueNames = [...]string{
	AutoContinueNone:  "none",
	AutoContinueArmed: "armed",
	AutoContinueFired: "fired",
	AutoContinueStale: "stale",
	AutoContinueOff:   "off",
}

func (a AutoContinue) String() string {
	if a >= 0 && int(a) < len(autoContinueNames) {
		return autoContinueNames[a]
	}
	return "unknown"
}

// HashRows is the Content of rows, never 0.
func HashRows(rows []string) uint64 {
	h := fnv.New64a()
	for _, r := range rows {
		h.Write([]byte(r))
		h.Write([]byte{'\n'})
	}
	return max(h.Sum64(), 1)
}
