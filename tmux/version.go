package tmux

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// minVersion is the oldest tmux codeman runs with: 3.2 brought control-mode
// flow control (pause-after, %extended-output, refresh-client -A).
var minVersion = Version{Major: 3, Minor: 2}

// Version is a tmux release number. Development builds ("master") have
// Dev set and compare newer than any release.
type Version struct {
	Major, Minor int
	Dev          bool
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	switch {
	case v.Dev || w.Dev:
		return !v.Dev && w.Dev
	case v.Major != w.Major:
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

// openBSDFirst32 is the first OpenBSD release whose base tmux had the 3.2
// control-mode features; OpenBSD's tmux says "openbsd-7.4" instead of a
// tmux release.
var openBSDFirst32 = Version{Major: 6, Minor: 9}

// ParseVersion reads what `tmux -V` or #{version} prints without the
// "tmux " prefix: "3.3a", "3.2", "3.4-rc", "next-3.4", "master",
// "openbsd-7.4". An OpenBSD version is mapped to the tmux it shipped,
// as far as minVersion is concerned.
func ParseVersion(s string) (Version, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "tmux ")
	switch {
	case s == "master":
		return Version{Dev: true}, nil
	case strings.HasPrefix(s, "next-"):
		return parseRelease(s, strings.TrimPrefix(s, "next-"))
	case strings.HasPrefix(s, "openbsd-"):
		v, err := parseRelease(s, strings.TrimPrefix(s, "openbsd-"))
		if err != nil {
			return Version{}, err
		}
		if v.Less(openBSDFirst32) {
			return Version{Major: 3, Minor: 1}, nil
		}
		return minVersion, nil
	}
	return parseRelease(s, s)
}

// parseRelease reads "MAJOR.MINOR" followed by anything ("a", "-rc").
func parseRelease(orig, s string) (Version, error) {
	majorText, rest, ok := strings.Cut(s, ".")
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	major, err1 := strconv.Atoi(majorText)
	minor, err2 := strconv.Atoi(rest[:end])
	if !ok || err1 != nil || err2 != nil {
		return Version{}, fmt.Errorf("parse tmux version %q: want MAJOR.MINOR such as 3.3a", orig)
	}
	return Version{Major: major, Minor: minor}, nil
}

// CheckVersion returns an error when the tmux version s is too old for
// codeman or cannot be read.
func CheckVersion(s string) error {
	if strings.TrimSpace(s) == "" {
		// What servers too old to know #{version} expand it to.
		return fmt.Errorf("the tmux server does not report its version: it is older than %d.%d, which codeman needs", minVersion.Major, minVersion.Minor)
	}
	v, err := ParseVersion(s)
	if err != nil {
		return err
	}
	if v.Less(minVersion) {
		return fmt.Errorf("tmux %s is too old: codeman needs %d.%d or newer for control-mode flow control",
			strings.TrimPrefix(strings.TrimSpace(s), "tmux "), minVersion.Major, minVersion.Minor)
	}
	return nil
}

// Version returns the version of the running server (#{version}), which
// may differ from the tmux binary on PATH after an upgrade.
func (s Server) Version(ctx context.Context) (string, error) {
	out, err := s.Run(ctx, "display-message", "-p", "#{version}")
	if err != nil {
		return "", fmt.Errorf("read tmux version: %w", err)
	}
	v := strings.TrimSpace(out)
	if v == "" {
		// Servers too old to know #{version} expand it to nothing.
		return "", fmt.Errorf("read tmux version on %s: the server does not report one (older than 3.2)", s.Socket)
	}
	return v, nil
}

// runnerVersion returns the version of the server r runs commands on: a
// Client's as its Start read it, else read now.
func runnerVersion(ctx context.Context, r Runner) (Version, error) {
	if c, ok := r.(*Client); ok {
		if v, ok := c.ServerVersion(); ok {
			return v, nil
		}
	}
	out, err := r.Run(ctx, "display-message", "-p", "#{version}")
	if err != nil {
		return Version{}, fmt.Errorf("read tmux version: %w", err)
	}
	return ParseVersion(strings.TrimSpace(out))
}
