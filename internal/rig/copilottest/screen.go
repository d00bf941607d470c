package copilottest

import (
	"regexp"
	"strings"
)

// Screen predicates for WaitFor, after docs/copilot.md, "The screen". They
// read capture-pane's plain text. Copilot's last row is its state: the
// footer under the prompt box, the working row, or the bottom of a dialog
// that took the box's place.

// lastRow returns the screen's last row with text, trimmed.
func lastRow(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, " \n"), "\n")
	return strings.TrimSpace(rows[len(rows)-1])
}

// idleFooter is in the footer of the empty prompt box in every mode:
// `← open sidebar · Interactive · Manual Approval · / commands · ? help ·
// tab next tab`.
const idleFooter = " · / commands · "

// typedFooter ends the footer while the box holds text:
// `Interactive · Manual Approval · @ files · # issues`.
const typedFooter = "· @ files · # issues"

// workingRow matches the last row while a turn works: `○ Working esc esc
// edit prompt`, `● Working · 30 B esc esc interrupt`, `◎ Working · 7 B esc
// again to interrupt`; the glyph cycles ○ ◎ ◉ ●.
var workingRow = regexp.MustCompile(`^[○◎◉●] Working\b`)

// Working reports whether the last row says a turn is under way: also
// while a tool runs or the model retries an API error.
func Working(screen string) bool { return workingRow.MatchString(lastRow(screen)) }

// dialogHints are the key hints of the dialogs that replace the prompt
// box: folder trust, permission prompts and plan approval; the question;
// the rewind dialog; the Sessions tab.
var dialogHints = []string{
	"↑/↓ to navigate · enter to select · esc to cancel",
	"↑/↓ select · enter accept · ctrl+d decline · esc cancel",
	"↑↓ Navigate · Enter Select · Esc Cancel",
	"n new session · esc cancel",
}

// DialogOpen reports whether a dialog has taken the prompt box's place.
// Only the bottom rows are read: the transcript above may quote a hint.
func DialogOpen(screen string) bool {
	tail := bottom(screen, 4)
	for _, hint := range dialogHints {
		if strings.Contains(tail, hint) {
			return true
		}
	}
	return false
}

// bottom returns the last n rows with text.
func bottom(screen string, n int) string {
	var rows []string
	for _, row := range strings.Split(screen, "\n") {
		if strings.TrimSpace(row) != "" {
			rows = append(rows, row)
		}
	}
	return strings.Join(rows[max(0, len(rows)-n):], "\n")
}

// PromptReady reports whether Copilot waits for input: the empty prompt
// box and its idle footer, nothing working, no dialog.
func PromptReady(screen string) bool {
	return strings.Contains(lastRow(screen), idleFooter) && !Working(screen) && !DialogOpen(screen)
}

// Typed reports whether the prompt box holds text and no turn works.
func Typed(screen string) bool { return strings.HasSuffix(cutModel(lastRow(screen)), typedFooter) }

// cutModel drops the model name the footer shows at its right, after a
// run of spaces.
func cutModel(row string) string {
	if i := strings.LastIndex(row, "   "); i >= 0 {
		return strings.TrimSpace(row[:i])
	}
	return row
}

// TrustOpen reports whether the folder trust dialog is open.
func TrustOpen(screen string) bool {
	return strings.Contains(screen, "Confirm folder trust") &&
		strings.Contains(screen, "Do you trust the files in this folder?") && DialogOpen(screen)
}

// permissionQuestion is the question of a permission prompt: `Do you want
// to run this command?`, `Do you want to create <path>?`, `Do you want to
// edit <path>?`.
var permissionQuestion = regexp.MustCompile(`│ Do you want to (?:run this command\?|\S+ .+\?)`)

// PermissionOpen reports whether Copilot asks to allow a tool call.
func PermissionOpen(screen string) bool {
	return permissionQuestion.MatchString(screen) && DialogOpen(screen) && !TrustOpen(screen)
}

// ShellPermissionOpen reports whether Copilot asks to run a command.
func ShellPermissionOpen(screen string) bool {
	return strings.Contains(screen, "│ Do you want to run this command?") && DialogOpen(screen)
}

// QuestionOpen reports whether an ask_user question is open.
func QuestionOpen(screen string) bool {
	return strings.Contains(screen, "Copilot needs information.") && DialogOpen(screen)
}

// Replied returns a predicate that holds once the transcript shows text as
// a reply row (` ● <text>`) and Copilot waits for input again.
func Replied(text string) func(string) bool {
	return func(screen string) bool { return strings.Contains(screen, "● "+text) && PromptReady(screen) }
}

// Retrying is the row Copilot adds for each retry of a failed model call
// (a 500; a 429 or a 401 is retried without one).
const Retrying = "● Request failed due to a transient API error. Retrying..."

// APIErrorLine matches the row that ends a turn lost to an API error
// after the retries: `✗ Failed to get response from the AI model; retried
// 5 times (…) Last error: 500 …`, or `✗ Authentication failed with
// provider at … (HTTP 401).`.
var APIErrorLine = regexp.MustCompile(`(?m)^ ✗ (?:Failed to get response from the AI model;|Authentication failed with provider).*`)
