package aicheck

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/codeman-dev/codeman/respawn"
)

// maxReason bounds the reason kept from an answer, in characters.
const maxReason = 300

// excerptLen is how much of the CLI's output an error quotes.
const excerptLen = 200

// verdicts are the two answers each kind of check accepts.
var verdicts = map[respawn.CheckKind][2]respawn.Verdict{
	respawn.IdleCheck: {respawn.VerdictIdle, respawn.VerdictWorking},
	respawn.PlanCheck: {respawn.VerdictPlanMode, respawn.VerdictNotPlanMode},
}

// classify turns what cli printed, decoded, into a verdict or an error. A clean
// exit with a verdict wins even when the reason quotes a limit seen in the
// pane; otherwise a usage or rate limit anywhere in the output becomes a
// *respawn.UsageLimitError, and everything else an error quoting the output.
func classify(cli *cliSpec, kind respawn.CheckKind, out output, now time.Time) (respawn.CheckResult, error) {
	if out.exitCode == 0 {
		if res, ok := parseVerdict(kind, out.stdout); ok {
			return res, nil
		}
	}
	if limit, ok := cli.findLimit(out.stdout+"\n"+out.stderr, now); ok {
		return respawn.CheckResult{}, &limit
	}
	stdout, stderr := strings.TrimSpace(out.stdout), strings.TrimSpace(out.stderr)
	switch {
	case out.exitCode != 0:
		printed := stderr
		if printed == "" {
			printed = stdout
		}
		return respawn.CheckResult{}, fmt.Errorf("%s %s: %q", cli.command, out.state, excerpt(printed))
	case stdout == "" && stderr != "":
		return respawn.CheckResult{}, fmt.Errorf("%s printed only to stderr: %q", cli.command, excerpt(stderr))
	case stdout == "":
		return respawn.CheckResult{}, fmt.Errorf("%s printed nothing", cli.command)
	}
	want := verdicts[kind]
	return respawn.CheckResult{}, fmt.Errorf("%s answered without %s or %s: %q", cli.command, want[0], want[1], excerpt(stdout))
}

// parseVerdict reads a verdict from the first word of the first line that
// has a letter in it, ignoring case and markup such as `**IDLE**`. The
// rest of that line, or else the next non-empty line, is the reason.
func parseVerdict(kind respawn.CheckKind, stdout string) (respawn.CheckResult, bool) {
	lines := strings.Split(stdout, "\n")
	for i, line := range lines {
		if !strings.ContainsFunc(line, unicode.IsLetter) {
			continue
		}
		word, rest := splitWord(strings.TrimSpace(line))
		verdict, ok := matchVerdict(kind, word)
		if !ok {
			return respawn.CheckResult{}, false
		}
		reason := trimReason(rest)
		for _, next := range lines[i+1:] {
			if reason != "" {
				break
			}
			reason = trimReason(next)
		}
		return respawn.CheckResult{Verdict: verdict, Reason: reason}, true
	}
	return respawn.CheckResult{}, false
}

// matchVerdict reports which of kind's verdicts word is.
func matchVerdict(kind respawn.CheckKind, word string) (respawn.Verdict, bool) {
	word = strings.TrimFunc(word, isMarkup)
	for _, v := range verdicts[kind] {
		if strings.EqualFold(word, string(v)) {
			return v, true
		}
	}
	return "", false
}

// isMarkup reports whether r may surround a verdict word: anything but a
// letter, a digit or the underscore of NOT_PLAN_MODE.
func isMarkup(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
}

// splitWord splits s at its first space.
func splitWord(s string) (word, rest string) {
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// trimReason strips separators and markup from around a reason and bounds
// its length.
func trimReason(s string) string {
	s = strings.TrimLeftFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("*_`:-–—.,>#", r)
	})
	s = strings.TrimRightFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("*_`", r)
	})
	if n := []rune(s); len(n) > maxReason {
		s = string(n[:maxReason]) + "…"
	}
	return s
}

// excerpt is the start of printed output, short enough for an error.
func excerpt(s string) string {
	if n := []rune(s); len(n) > excerptLen {
		return string(n[:excerptLen]) + "…"
	}
	return s
}
