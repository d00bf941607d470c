package agents

import (
	"strconv"
	"strings"
)

// Release says which releases of an agent's CLI codeman is tested with
// and how a person gets one. codeman reads the CLI's screens, which a
// newer release may draw otherwise.
type Release struct {
	// Tested are the releases codeman is tested with, oldest first: the
	// last is the one the agent's install script (scripts/) pins, the
	// others earlier pins CI still tests.
	Tested []string
	// Package is the npm package the CLI installs from.
	Package string
	// Version reads the release from what the CLI's --version prints.
	Version func(out string) (string, bool)
	// Optional says that a machine without the CLI lacks only this
	// agent's panes, which is worth a note rather than a warning.
	Optional bool
}

// Pinned is the release the install script pins.
func (r Release) Pinned() string { return r.Tested[len(r.Tested)-1] }

// InstallCommand installs the pinned release.
func (r Release) InstallCommand() string { return "npm install -g " + r.Package + "@" + r.Pinned() }

// IsTested reports whether v is one of the tested releases.
func (r Release) IsTested(v string) bool {
	for _, t := range r.Tested {
		if CompareVersions(v, t) == 0 {
			return true
		}
	}
	return false
}

// firstFieldVersion reads a version printed first: claude --version's
// "2.1.332 (Claude Code)", opencode --version's "1.18.33".
func firstFieldVersion(out string) (string, bool) {
	fields := strings.Fields(out)
	if len(fields) == 0 || versionParts(fields[0]) == nil {
		return "", false
	}
	return fields[0], true
}

// codexVersion reads what codex --version prints: "codex-cli 0.171.0".
func codexVersion(out string) (string, bool) {
	fields := strings.Fields(out)
	if len(fields) != 2 || fields[0] != "codex-cli" || versionParts(fields[1]) == nil {
		return "", false
	}
	return fields[1], true
}

// copilotVersion reads what copilot --version prints: "GitHub Copilot
// CLI 1.0.102." and an update hint on the next line.
func copilotVersion(out string) (string, bool) {
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	v, ok := strings.CutPrefix(strings.TrimSpace(line), "GitHub Copilot CLI ")
	v = strings.TrimSuffix(v, ".")
	if !ok || versionParts(v) == nil {
		return "", false
	}
	return v, true
}

// CompareVersions orders two dotted release numbers: -1, 0 or +1. A
// missing part counts as 0.
func CompareVersions(a, b string) int {
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
