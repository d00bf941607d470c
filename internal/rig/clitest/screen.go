package clitest

import (
	"regexp"
	"strings"
)

// Contains returns a predicate for WaitFor that holds when the screen
// contains substr.
func Contains(substr string) func(string) bool {
	return func(screen string) bool { return strings.Contains(screen, substr) }
}

// Matches returns a predicate for WaitFor that holds when re matches the
// screen.
func Matches(re *regexp.Regexp) func(string) bool {
	return re.MatchString
}
