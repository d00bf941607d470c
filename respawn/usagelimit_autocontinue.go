package respawn

import "strings"

// AutoContinue is what the screen says of Claude Code's own continue at a
// usage limit (its setting autoContinueAtUsageLimit, on by default): once
// the limit resets it sends a turn of its own, 30 to 90 s after the reset
// time. codeman types its resume prompt only when Claude Code will not.
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
func autoContinueFooter(row string) AutoContinue {
	s := strings.TrimSpace(row)
	switch {
	case strings.HasPrefix(s, autoContinueFooterArmed[0]) && strings.HasSuffix(s, autoContinueFooterArmed[1]):
		return AutoContinueArmed
	case s == autoContinueStaleTexts[1]:
		return AutoContinueStale
	}
	return AutoContinueNone
}

// autoContinueNotice reads a transcript row: a notice Claude Code printed
// about its continue ("● Usage limit reset · Continuing automatically"),
// or none.
func autoContinueNotice(row string) AutoContinue {
	s, ok := strings.CutPrefix(strings.TrimSpace(row), "● ")
	if !ok {
		return AutoContinueNone
	}
	for _, t := range autoContinueFiredTexts {
		if strings.HasPrefix(s, t) {
			return AutoContinueFired
		}
	}
	if strings.HasPrefix(s, autoContinueStaleTexts[0]) {
		return AutoContinueStale
	}
	if strings.HasPrefix(s, autoContinueOffPrefix) {
		return AutoContinueOff
	}
	return AutoContinueNone
}
