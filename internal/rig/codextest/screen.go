package codextest

import (
	"regexp"
	"strings"
)

// Screen predicates for WaitFor, after docs/codex.md, "The screen". They
// read capture-pane's plain text.

// Placeholder is what the empty composer shows.
const Placeholder = "Ask Codex to do anything"

// footerHint ends the footer under the composer while nothing else takes
// the composer's place.
const footerHint = "? for shortcuts"

// Working reports whether the status row says Codex is working:
// `• Working (12s • esc to interrupt)`. The row is gone while the reply's
// text streams in.
func Working(screen string) bool { return strings.Contains(screen, "esc to interrupt") }

// dialogHints are the key hints at the bottom of the dialogs that take the
// composer's place: the command approval prompt, the rate limit model
// nudge and other menus, the folder trust and hooks review dialogs, the
// model upgrade notice, the warnings view.
var dialogHints = []string{
	"Press enter to confirm or esc to cancel",
	"enter select · esc back",
	"enter continue · esc back",
	"enter confirm · esc skip",
	"enter/esc confirm",
	"esc dismiss & close",
	"esc close",
}

// DialogOpen reports whether a dialog or menu has taken the composer's
// place.
func DialogOpen(screen string) bool {
	for _, hint := range dialogHints {
		if strings.Contains(screen, hint) {
			return true
		}
	}
	return false
}

// ApprovalOpen reports whether Codex asks to approve a command.
func ApprovalOpen(screen string) bool {
	return strings.Contains(screen, "Would you like to run the following command?") &&
		strings.Contains(screen, "Press enter to confirm or esc to cancel")
}

// PromptReady reports whether Codex waits for input: the composer and its
// footer are drawn, nothing runs and no dialog is open.
func PromptReady(screen string) bool {
	return strings.Contains(screen, footerHint) && !Working(screen) && !DialogOpen(screen)
}

// DoneLine matches the line under a finished turn: `Worked for 23s •
// 18:17`, `Worked for <1s • 18:17`, `Worked for 1m 05s • 9:02`.
var DoneLine = regexp.MustCompile(`Worked for (?:<1s|[0-9hms ]+) • \d{1,2}:\d{2}`)

// Done returns a predicate that holds once the screen shows at least n
// done lines.
func Done(n int) func(string) bool {
	return func(screen string) bool { return len(DoneLine.FindAllString(screen, -1)) >= n }
}

// ErrorLine matches the line that ends a turn lost to an error: `■ ` and
// the message (`■ Selected model is at capacity. …`, `■ You’ve hit your
// usage limit. …`). An interrupted turn prints one too.
var ErrorLine = regexp.MustCompile(`(?m)^■ .+`)
