package screen

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// MinVersion is the oldest screen codeman runs with: -Q, which answers
// queries such as `-Q number` and `-Q info` on stdout, came with 4.1.
var MinVersion = Version{Major: 4, Minor: 1}

// exactHardcopy is the first screen whose hardcopy writes characters in
// the window's encoding. Older ones write only the low byte of each
// character (screen 4.x stores a character's other bits apart from its
// image row, and hardcopy copies the image row alone).
var exactHardcopy = Version{Major: 5, Minor: 0}

// Version is a screen release number.
type Version struct {
	Major, Minor int
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// ExactHardcopy reports whether hardcopy keeps every character of this
// version's windows; see Poller for what codeman does when it does not.
func (v Version) ExactHardcopy() bool { return !v.Less(exactHardcopy) }

var versionRe = regexp.MustCompile(`^Screen version (\d+)\.(\d+)`)

// ParseVersion reads what `screen -v` prints: "Screen version 4.09.00
// (GNU) 30-Jan-22", "Screen version 4.01.00devel (GNU) 2-May-06",
// "Screen version 5.0.0 (build on ...)".
func ParseVersion(s string) (Version, error) {
	m := versionRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Version{}, fmt.Errorf("parse screen version %q: want \"Screen version MAJOR.MINOR...\"", firstLine(s))
	}
	major, _ := strconv.Atoi(m[1]) // the pattern admits digits only
	minor, _ := strconv.Atoi(m[2])
	return Version{Major: major, Minor: minor}, nil
}

// CheckVersion returns an error when the screen version s is too old for
// codeman or cannot be read.
func CheckVersion(s string) (Version, error) {
	v, err := ParseVersion(s)
	if err != nil {
		return Version{}, err
	}
	if v.Less(MinVersion) {
		return v, fmt.Errorf("GNU screen %s is too old: codeman needs %s or newer for -Q queries", v, MinVersion)
	}
	return v, nil
}

// Installed reports whether a screen binary is on PATH.
func Installed() bool {
	_, err := exec.LookPath("screen")
	return err == nil
}

// InstalledVersion runs `screen -v` and checks the version it reports.
func InstalledVersion(ctx context.Context, r Runner) (Version, error) {
	if r == nil {
		r = ExecRunner{}
	}
	out, err := r.Run(ctx, "-v")
	if err != nil {
		return Version{}, fmt.Errorf("read screen version: %w", err)
	}
	return CheckVersion(out)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
