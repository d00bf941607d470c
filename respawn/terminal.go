package respawn

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Terminal is one pane or window as the controller sees it. The tmux and
// screen packages implement it; replay records instead of typing.
//
// Every method may block on I/O, so the controller only calls them from
// worker goroutines, never from its loop.
type Terminal interface {
	// Submit types text into the pane literally and presses Enter, then
	// checks that the screen changed and retries Enter a bounded number of
	// times. Text with newlines is delivered as one bracketed paste.
	Submit(ctx context.Context, text string) error
	// Press sends one key, such as Enter to accept a plan approval menu.
	Press(ctx context.Context, key Key) error
	// Snapshot returns the pane's rendered screen.
	Snapshot(ctx context.Context) (Screen, error)
}

// Key is a key the controller may press on its own.
type Key string

// The keys codeman presses by itself. Escape is never sent (twice opens
// Rewind) and neither is Ctrl+L.
const (
	// KeyEnter submits a prompt or takes the highlighted option of a plan
	// approval menu.
	KeyEnter Key = "Enter"
	// KeyBackspace deletes the character before the cursor: Submit takes
	// its own text back out of the box with it when it was cancelled
	// before Enter, only when the box shows exactly that text.
	KeyBackspace Key = "Backspace"
	// KeyVimInsert is vim's "i": it enters INSERT mode from NORMAL mode,
	// as a person would before typing. Submit presses it only when the box
	// is in NORMAL mode (PromptReader), where it types nothing.
	KeyVimInsert Key = "i"
)

// Screen is the rendered content of a pane at one moment: one string per
// row, top to bottom, trailing blanks removed.
type Screen struct {
	Lines  []string
	Width  int
	Height int
	At     time.Time // when it was captured
}

// Text returns the screen's rows joined by newlines.
func (s Screen) Text() string { return strings.Join(s.Lines, "\n") }

// CheckKind says which question an AI check answers.
type CheckKind int

const (
	// IdleCheck asks whether the pane is IDLE or WORKING.
	IdleCheck CheckKind = iota
	// PlanCheck asks whether the pane shows a plan approval menu
	// (PLAN_MODE or NOT_PLAN_MODE).
	PlanCheck
)

func (k CheckKind) String() string {
	if k == PlanCheck {
		return "plan"
	}
	return "idle"
}

// Verdict is the answer of an AI check.
type Verdict string

// The verdicts a Checker may return. Anything else is an error.
const (
	VerdictIdle        Verdict = "IDLE"
	VerdictWorking     Verdict = "WORKING"
	VerdictPlanMode    Verdict = "PLAN_MODE"
	VerdictNotPlanMode Verdict = "NOT_PLAN_MODE"
)

// CheckRequest is what an AI check gets to look at.
type CheckRequest struct {
	Kind   CheckKind
	Model  string
	Text   string        // ANSI-free pane text, already cut to the configured context size
	Limit  time.Duration // the check's timeout
	PaneID string        // for logs only
}

// CheckResult is a Checker's answer.
type CheckResult struct {
	Verdict  Verdict
	Reason   string // the line after the verdict, if any
	Duration time.Duration
}

// Checker runs one AI check. The controller owns cooldowns, backoff and
// disabling; a Checker only answers or fails. It must return promptly when
// ctx is cancelled.
type Checker interface {
	Check(ctx context.Context, req CheckRequest) (CheckResult, error)
}

// ErrUsageLimit is returned (wrapped in a *UsageLimitError) by a Checker
// whose model reported a usage or rate limit. The controller pauses checks
// until the reset time instead of counting it as a broken checker.
var ErrUsageLimit = errors.New("usage limit reached")

// UsageLimitError carries the reset time of a usage limit, when known.
type UsageLimitError struct {
	Line    string    // the message as printed
	ResetAt time.Time // zero when the message gave no time
}

func (e *UsageLimitError) Error() string { return "usage limit: " + e.Line }
func (e *UsageLimitError) Unwrap() error { return ErrUsageLimit }

// ErrNotAgent is returned (wrapped) by a Terminal that refuses to type
// because the pane's foreground program is not the agent: a shell it
// exited to, an editor, a pager. The core abandons the cycle and types
// nothing until the agent runs again; it is not a failed send.
var ErrNotAgent = errors.New("the agent is not the pane's program")

// ErrCheckerUnavailable means the checker cannot run at all, for example
// because the claude binary is missing. The controller disables AI checks
// with the error's text as the reason.
var ErrCheckerUnavailable = errors.New("checker unavailable")
