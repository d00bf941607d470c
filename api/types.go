package api

import (
	"errors"
	"time"

	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/respawn"
)

// ErrNotControlled means no controller runs for the pane.
var ErrNotControlled = errors.New("pane is not controlled by codeman")

// ErrNotOwner means another codeman daemon owns the pane, or nobody does
// any more: the pane must not be typed into.
var ErrNotOwner = errors.New("pane is not owned by this codeman daemon")

// AttachRequest enables respawn on a pane.
type AttachRequest struct {
	Pane    string   `json:"pane"`              // canonical address
	Profile string   `json:"profile,omitempty"` // "" = [respawn]
	Sets    []string `json:"sets,omitempty"`    // key=value overrides
	// Paused starts the controller paused: a pane adopted as it was left.
	Paused bool `json:"paused,omitempty"`
}

// PaneStatus is one enabled pane, as status and explain show it: a
// controlled one, or one the daemon could not adopt (Problem says why;
// Status is then empty).
type PaneStatus struct {
	Pane        string         `json:"pane"`            // canonical address
	Target      string         `json:"target"`          // what a person calls it: work:1.0 (%3), screen 123.work:0
	Command     string         `json:"command"`         // program running in the pane, when known
	Agent       string         `json:"agent,omitempty"` // the agent the controller reads: claude, codex
	Profile     string         `json:"profile,omitempty"`
	Sets        []string       `json:"sets,omitempty"`
	Mode        string         `json:"mode"` // how output is read: control, polling: <why>, hardcopy
	AttachedAt  time.Time      `json:"attached_at"`
	HooksActive bool           `json:"hooks_active"` // any hook marker seen since the daemon started
	LastHook    string         `json:"last_hook,omitempty"`
	LastHookAt  time.Time      `json:"last_hook_at,omitzero"`
	Checker     string         `json:"checker"` // AI checker availability
	Status      respawn.Status `json:"status"`
	// Problem says why an enabled pane is not controlled: a bad config or
	// --set value, another daemon owns it, its window runs another program.
	Problem   string    `json:"problem,omitempty"`
	ProblemAt time.Time `json:"problem_at,omitzero"`
	// Live is the pane's screen read for this answer, when asked for
	// (Client.Explain): the controller reads it only when it must decide.
	Live *LiveScreen `json:"live,omitempty"`
}

// LiveScreen is what the screen patterns make of a pane's screen now.
type LiveScreen struct {
	At         time.Time `json:"at"`
	Error      string    `json:"error,omitempty"` // why the screen could not be read
	Working    bool      `json:"working"`
	Completion bool      `json:"completion"`
	PromptBox  bool      `json:"prompt_box"`
	Input      string    `json:"input,omitempty"` // text in the prompt box
	PlanMenu   bool      `json:"plan_menu"`
	Question   bool      `json:"question"`
	Permission bool      `json:"permission"`
	Dialog     bool      `json:"dialog"`
	Evidence   []string  `json:"evidence,omitempty"` // what the patterns matched
}

// Schema is the version of the JSON that scripts read: status --json
// (StatusReport) and the event lines of status --watch --json (Event). A
// later version may add fields, never change these.
const Schema = 1

// StatusReport is what codeman status --json prints.
type StatusReport struct {
	V     int          `json:"v"` // Schema
	Panes []PaneStatus `json:"panes"`
}

// Event is one line of the event stream.
type Event struct {
	V        int               `json:"v"` // Schema
	At       time.Time         `json:"at"`
	Pane     string            `json:"pane"`
	Kind     string            `json:"kind"` // attach, detach, decision, not-adopted, needs-you, resolved
	Reason   string            `json:"reason,omitempty"`
	Decision *respawn.Decision `json:"decision,omitempty"`
}

// Event kinds of a pane's need for a person. A needs-you event's Reason is
// "kind: reason"; a resolved one's is the need that ended.
const (
	EventNeedsYou = "needs-you"
	EventResolved = "resolved"
)

// PauseRequest pauses a controlled pane (nothing is typed into it) or
// resumes it; the answer is the pane's PaneStatus. Both fields are
// required: a request without paused is refused, never taken for a resume.
type PauseRequest struct {
	Pane   string `json:"pane"` // canonical address
	Paused bool   `json:"paused"`
}

// AnswerRequest is a person's choice for the dialog of a pane's need.
type AnswerRequest struct {
	Pane string `json:"pane"` // canonical address
	// Need is the ID of the need the person saw (PaneStatus's
	// Status.NeedsYou.ID); "" answers the one open now.
	Need   string `json:"need,omitempty"`
	Choice string `json:"choice"` // an option's number or label, or allow/deny
	From   string `json:"from"`   // where the answer came from: "cli", "dash"
}

// DeadlineHeader carries the time (RFC 3339, UTC) after which the client
// no longer waits for the answer. The daemon refuses a request whose
// deadline has passed by the time it gets to it, and works on one within
// it: a request its client gave up on never takes effect later.
const DeadlineHeader = "Codeman-Deadline"

// ToggleResult is the answer of POST /v1/panes/toggle.
type ToggleResult struct {
	Pane   string      `json:"pane"`             // canonical address
	On     bool        `json:"on"`               // respawn is on now
	Status *PaneStatus `json:"status,omitempty"` // when On
}

// Health is the answer of GET /v1/health.
type Health struct {
	PID         int    `json:"pid"`
	Version     string `json:"version"`
	Socket      string `json:"socket"`
	Owner       string `json:"owner"`       // what the daemon writes into the panes it owns
	Panes       int    `json:"panes"`       // panes controlled
	Controllers int    `json:"controllers"` // controller loops running; equal to Panes but for a moment
	NotAdopted  int    `json:"not_adopted"` // enabled panes not controlled
	// Notify is how the notifications of panes that need a person fare.
	Notify NotifyStatus `json:"notify"`
	// History is how the writes of the pane histories fare.
	History HistoryStatus `json:"history"`
}

// ErrorBody is the body of every error response.
type ErrorBody struct {
	Error string `json:"error"`
}

// StatusLine is the name of the channel the daemon adds to those of the
// [notify] table: the status line of the clients looking at the pane's
// session.
const StatusLine = "status line"

// NotifyStatus is the daemon's notifications, for doctor.
type NotifyStatus struct {
	Problem     string                 `json:"problem,omitempty"` // why the [notify] channels are not used
	Channels    []notify.ChannelStatus `json:"channels"`
	Holds       int                    `json:"holds"`        // panes needing a person now
	RateLimited int                    `json:"rate_limited"` // messages the rate limit dropped
	RateDelayed int                    `json:"rate_delayed"` // first messages that waited for the rate limit
	// Answer is how answering from the phone fares; nil when
	// [notify.answer] leaves it off.
	Answer *AnswerStatus `json:"answer,omitempty"`
}

// AnswerStatus is the daemon's subscription to the reply topic of
// [notify.answer], for doctor.
type AnswerStatus struct {
	Topic     string    `json:"topic"` // redacted
	Problem   string    `json:"problem,omitempty"`
	Connected bool      `json:"connected"`
	Since     time.Time `json:"since,omitzero"` // when it connected, or lost the connection
	Error     string    `json:"error,omitempty"`
	Messages  int       `json:"messages"`           // messages read since the daemon started
	LastTest  time.Time `json:"last_test,omitzero"` // when a test button's answer last came back
}

// HistoryStatus is how the writes of the pane histories fare, for doctor.
type HistoryStatus struct {
	Dir string `json:"dir"` // "" from a daemon that does not say
	// Problem is the last error met writing them (or opening them: then
	// none is kept until the daemon restarts), "" when none was.
	Problem   string    `json:"problem,omitempty"`
	Since     time.Time `json:"since,omitzero"`     // when Problem was first met
	Recovered time.Time `json:"recovered,omitzero"` // when writes worked again after it; zero while they fail
	NotKept   bool      `json:"not_kept,omitempty"` // the history could not be opened: nothing is written
	Dropped   uint64    `json:"dropped,omitempty"`  // records dropped because the disk fell behind
}

// RecordEvent is one line of a pane's recording (GET /v1/record): what
// the daemon sees of the pane, which `codeman record` writes as an
// asciicast so that replay has the same evidence the controller had.
type RecordEvent struct {
	At   time.Time `json:"at"`
	Kind string    `json:"kind"` // RecordSize (first), RecordOutput or RecordMarker
	Data string    `json:"data"`
}

// Kinds of RecordEvent.
const (
	RecordSize   = "size" // the pane's size, COLSxROWS; always first
	RecordOutput = "o"    // output, as the pane's terminal got it
	RecordMarker = "m"    // a hook event, "hook:" and Claude Code's JSON
)
