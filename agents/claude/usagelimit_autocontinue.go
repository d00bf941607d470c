package claude

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// The texts below are Claude Code's own (2.1.328 and 2.1.332). The footer
// rows come from a template a server-side setting may reword, as long as
// it keeps the time; the notices are fixed strings.
var (
	// autoContinueFooterArmed starts and ends the footer row of an armed
	// continue: "Continuing automatically at 3pm · Esc to cancel",
	// "Continuing shortly · Esc to cancel".
	autoContinueFooterArmed = [2]string{"Continuing ", " · Esc to cancel"}
	// autoContinueStaleTexts say the limit reset unnoticed: the notice,
	// and the footer's second row.
	autoContinueStaleTexts = []string{"Usage limit has reset · Press enter to continue", "Press enter to continue"}
	// autoContinueFiredTexts are the notices of a continue that was sent.
	autoContinueFiredTexts = []string{"Usage limit reset · Continuing automatically", "Usage limit available again · continuing now"}
	// autoContinueOffPrefix starts every notice of a continue that will
	// not come: cancelled with Esc, turned off, stopped after repeated
	// limits or a login change, or blocked.
	autoContinueOffPrefix = "Automatic continue "
)

// autoContinueFooter reads a row under the prompt box: armed, stale, or
// none.
func autoContinueFooter(row string) respawn.AutoContinue {
	s := strings.TrimSpace(row)
	switch {
	case strings.HasPrefix(s, autoContinueFooterArmed[0]) && strings.HasSuffix(s, autoContinueFooterArmed[1]):
		return respawn.AutoContinueArmed
	case s == autoContinueStaleTexts[1]:
		return respawn.AutoContinueStale
	}
	return respawn.AutoContinueNone
}

// autoContinueNotice reads a transcript row: a notice Claude Code printed
// about its continue ("● Usage limit reset · Continuing automatically"),
// or none.
func autoContinueNotice(row string) respawn.AutoContinue {
	s, ok := strings.CutPrefix(strings.TrimSpace(row), "● ")
	if !ok {
		return respawn.AutoContinueNone
	}
	for _, t := range autoContinueFiredTexts {
		if strings.HasPrefix(s, t) {
			return respawn.AutoContinueFired
		}
	}
	if strings.HasPrefix(s, autoContinueStaleTexts[0]) {
		return respawn.AutoContinueStale
	}
	if strings.HasPrefix(s, autoContinueOffPrefix) {
		return respawn.AutoContinueOff
	}
	return respawn.AutoContinueNone
}
