package opencodetest

import (
	"regexp"
	"strings"
)

// Screen predicates for WaitFor, after docs/opencode.md, "The screen".
// They read capture-pane's plain text. OpenCode's last row is its state:
// the working bar while a turn works, the key hints when idle; the
// composer above it ends in the agent row and the `╹▀▀▀` edge, and a
// permission prompt takes the composer's place.

// rows returns the screen's rows with text, right-trimmed.
func rows(screen string) []string {
	var out []string
	for _, row := range strings.Split(screen, "\n") {
		if row = strings.TrimRight(row, " "); strings.TrimSpace(row) != "" {
			out = append(out, row)
		}
	}
	return out
}

// bottom returns the last n rows with text.
func bottom(screen string, n int) string {
	r := rows(screen)
	return strings.Join(r[max(0, len(r)-n):], "\n")
}

// lastRow returns the screen's last row with text, trimmed.
func lastRow(screen string) string {
	r := rows(screen)
	if len(r) == 0 {
		return ""
	}
	return strings.TrimSpace(r[len(r)-1])
}

// workingBar starts the last row while a turn works: eight cells, `⬝` and
// a few `■` that move along (`⬝⬝⬝⬝⬝■■■`), then `esc interrupt`, `esc again
// to interrupt` or a retried error.
var workingBar = regexp.MustCompile(`^[⬝■]{8}(?:\s|$)`)

// Working reports whether the last row shows the working bar: also while
// a tool runs or OpenCode waits to retry an API error.
func Working(screen string) bool { return workingBar.MatchString(lastRow(screen)) }

// Retrying reports whether the working bar names an API error it waits to
// retry: `⬝⬝⬝⬝⬝■■■ Internal server error (fake) [retrying in 18s attempt #4]`.
func Retrying(screen string) bool {
	return Working(screen) && strings.Contains(lastRow(screen), "[retrying in ")
}

// permissionTitle heads a permission prompt; its options sit on one of
// the last rows.
const (
	permissionTitle   = "┃  △ Permission required"
	permissionOptions = "Allow once   Allow always   Reject"
)

// PermissionOpen reports whether OpenCode asks to allow a tool call (a
// command, a file write): the prompt in the composer's place.
func PermissionOpen(screen string) bool {
	return strings.Contains(screen, permissionTitle) && strings.Contains(bottom(screen, 3), permissionOptions)
}

// ShellPermissionOpen reports whether the permission prompt is for a
// command (`# Shell command`).
func ShellPermissionOpen(screen string) bool {
	return PermissionOpen(screen) && strings.Contains(screen, "┃    # Shell command")
}

// agentRow is the composer's last row, over the `╹▀▀▀` edge: `┃  Build ·
// Claude Sonnet 4.5 (latest) Anthropic`.
var agentRow = regexp.MustCompile(`^\s*┃  \S+ · `)

// composerText returns what the composer holds (its text row, two above
// the agent row; "" when empty or showing its `Ask anything…` placeholder)
// and whether a composer is on screen at all.
func composerText(screen string) (text string, ok bool) {
	r := rows(screen)
	for i := len(r) - 1; i >= 3; i-- {
		if !strings.HasPrefix(strings.TrimSpace(r[i]), "╹▀") {
			continue
		}
		if !agentRow.MatchString(r[i-1]) {
			return "", false
		}
		text = barText(r[i-3])
		if strings.HasPrefix(text, "Ask anything…") {
			text = ""
		}
		return text, true
	}
	return "", false
}

// barText returns the text of a row that starts with the `┃` bar, cut
// before the sidebar's column (a run of spaces); "" for any other row.
func barText(row string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(row), "┃")
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if i := strings.Index(rest, "   "); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSuffix(strings.TrimSpace(rest), "┃")
}

// hints are on the last row, or on the start screen one or two above it
// (a tip may come between):
// `ctrl+p commands`.
const hints = "ctrl+p commands"

// PromptReady reports whether OpenCode waits for input: the empty
// composer with its key hints, no working bar, no permission prompt.
func PromptReady(screen string) bool {
	text, ok := composerText(screen)
	return ok && text == "" && !Working(screen) && !PermissionOpen(screen) && strings.Contains(bottom(screen, 3), hints)
}

// Typed reports whether the composer holds text and no turn works.
func Typed(screen string) bool {
	text, ok := composerText(screen)
	return ok && text != "" && !Working(screen) && !PermissionOpen(screen)
}

// turnFooter is the row under each turn: `▣  Build · Claude Sonnet 4.5
// (latest)`, with ` · 2.8s` once it ended and ` · interrupted` after Esc
// Esc.
var turnFooter = regexp.MustCompile(`^\s*▣  \S+ · (.*)$`)

// Replied returns a predicate that holds once the transcript shows text
// (the reply, which has no bar) and OpenCode waits for input again.
func Replied(text string) func(string) bool {
	return func(screen string) bool { return strings.Contains(screen, "     "+text) && PromptReady(screen) }
}

// ErrorLine returns the error a failed turn left when OpenCode waits for
// input again: the last row of the `┃` block right over a turn footer
// without a time (`┃  Internal server error (fake)`, `┃  invalid x-api-key
// (fake)`). It is "" while a turn works and after a turn that ended,
// was interrupted or had its permission rejected.
func ErrorLine(screen string) string {
	if Working(screen) || PermissionOpen(screen) {
		return ""
	}
	r := rows(screen)
	footer := -1
	for i := len(r) - 1; i >= 0; i-- {
		if turnFooter.MatchString(r[i]) {
			footer = i
			break
		}
	}
	if footer < 0 {
		return ""
	}
	// The sidebar may share the row, after a run of spaces.
	if model, _, _ := strings.Cut(turnFooter.FindStringSubmatch(r[footer])[1], "   "); strings.Contains(model, " · ") {
		return ""
	}
	for i := footer - 1; i >= 0; i-- {
		if sidebarOnly(r[i]) {
			continue
		}
		if !strings.HasPrefix(strings.TrimSpace(r[i]), "┃") {
			return ""
		}
		if text := barText(r[i]); text != "" {
			return text
		}
	}
	return ""
}

// questionHints end the question tool's form, which takes the composer's
// place: the question, numbered options, `Type your own answer`.
const questionHints = "┃  ↑↓ select  enter submit  esc dismiss"

// QuestionOpen reports whether the question tool waits for an answer.
func QuestionOpen(screen string) bool {
	return strings.Contains(bottom(screen, 3), questionHints)
}

// sidebarOnly reports whether a transcript row holds only the sidebar's
// text, far to the right (`Context`, `LSP`, the session's cost), and none
// of the transcript's, whose rows start within the first columns.
func sidebarOnly(row string) bool {
	return len(row)-len(strings.TrimLeft(row, " ")) > 20
}
