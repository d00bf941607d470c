package claudetest

import (
	"regexp"
	"strings"
)

// Screen predicates for WaitFor, after docs/claude-code.md, "The screen".
// They read capture-pane's plain text.

// inputLine starts Claude's input line: ❯ and a no-break space, which
// capture-pane keeps (the transcript echo of a prompt uses a plain space).
const inputLine = "❯\u00a0"

// Busy reports whether the footer says Claude is working: `esc to
// interrupt` is the one busy sign that stays while text streams and the
// spinner row is gone.
func Busy(screen string) bool { return strings.Contains(screen, "esc to interrupt") }

// DialogOpen reports whether a permission prompt, question, plan approval
// or other menu is open.
func DialogOpen(screen string) bool {
	for _, marker := range []string{"Esc to cancel", "Enter to confirm", "Enter to select"} {
		if strings.Contains(screen, marker) {
			return true
		}
	}
	return false
}

// PromptReady reports whether Claude waits for input: the input line is
// drawn, nothing runs and no dialog is open.
func PromptReady(screen string) bool {
	for _, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(line, inputLine) {
			return !Busy(screen) && !DialogOpen(screen)
		}
	}
	return false
}

// CompletionLine matches the line Claude prints when a turn completes:
// `✻ Churned for 0s · done 6:47 PM`, `✻ Baked for 1m 11s · done …`. The
// verb is picked by hash from this list.
var CompletionLine = regexp.MustCompile(`✻ (?:Baked|Brewed|Churned|Cogitated|Cooked|Crunched|Sautéed|Worked) for [0-9hms ]+· done`)

// WaitingForAgents matches the line that takes the completion line's place
// while background agents still run.
var WaitingForAgents = regexp.MustCompile(`✻ Waiting for \d+ background agents? to finish`)

// Completions returns a predicate that holds once the screen shows at
// least n completion lines.
func Completions(n int) func(string) bool {
	return func(screen string) bool { return len(CompletionLine.FindAllString(screen, -1)) >= n }
}
