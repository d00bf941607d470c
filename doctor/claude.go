package doctor

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// TestedClaudeVersions are the Claude Code releases codeman is tested
// with, oldest first: the last is the one scripts/install-claude.sh pins,
// the one before it the previous pin, which CI still tests. codeman reads
// Claude Code's screens, and a newer release may draw them differently.
var TestedClaudeVersions = []string{"2.1.328", "2.1.332"}

// checkClaude checks the Claude Code CLI on PATH against
// TestedClaudeVersions.
func (d *Doctor) checkClaude(ctx context.Context) Check {
	newest := TestedClaudeVersions[len(TestedClaudeVersions)-1]
	install := "npm install -g @anthropic-ai/claude-code@" + newest
	tested := strings.Join(TestedClaudeVersions, ", ")
	path, err := d.LookPath("claude")
	if err != nil {
		return Check{Name: "claude", Verdict: VerdictWarn, Message: "Claude Code (claude) not found on PATH, so its version is unknown",
			Fix: "install a tested version (" + tested + "): " + install}
	}
	out, err := d.output(ctx, path, "--version")
	if err != nil {
		return Check{Name: "claude", Verdict: VerdictWarn, Message: "version unknown: " + err.Error(), Fix: "check that " + path + " runs, or reinstall it: " + install}
	}
	v, ok := claudeVersion(out)
	if !ok {
		return Check{Name: "claude", Verdict: VerdictWarn, Message: fmt.Sprintf("version unknown: %s --version printed %q", path, firstLine(out)), Fix: "reinstall it: " + install}
	}
	switch c := compareVersions(v, newest); {
	case isTestedClaude(v):
		return Check{Name: "claude", Verdict: VerdictOK, Message: fmt.Sprintf("Claude Code %s (%s), a tested version", v, path)}
	case c > 0:
		return Check{Name: "claude", Verdict: VerdictWarn,
			Message: fmt.Sprintf("Claude Code %s (%s) is newer than the versions codeman is tested with (%s): its screens may have changed", v, path, tested),
			Fix:     "if codeman misreads a pane (codeman explain shows what it reads), install " + newest + ": " + install}
	default:
		return Check{Name: "claude", Verdict: VerdictWarn,
			Message: fmt.Sprintf("Claude Code %s (%s) is not a version codeman is tested with (%s)", v, path, tested),
			Fix:     "update it: " + install}
	}
}

func isTestedClaude(v string) bool {
	for _, t := range TestedClaudeVersions {
		if compareVersions(v, t) == 0 {
			return true
		}
	}
	return false
}

// claudeVersion reads what claude --version prints: "2.1.332 (Claude Code)".
func claudeVersion(out string) (string, bool) {
	fields := strings.Fields(out)
	if len(fields) == 0 || versionParts(fields[0]) == nil {
		return "", false
	}
	return fields[0], true
}

// versionParts splits a dotted release number; nil when it is not one.
func versionParts(v string) []int {
	words := strings.Split(v, ".")
	parts := make([]int, len(words))
	for i, w := range words {
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 {
			return nil
		}
		parts[i] = n
	}
	return parts
}

// compareVersions orders two dotted release numbers: -1, 0 or +1. A
// missing part counts as 0.
func compareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
