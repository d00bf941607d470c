package config

import (
	"fmt"
	"slices"
	"strings"
)

// didYouMean suggests the known key closest to a mistyped one, or "".
func didYouMean(key string, known []string) string {
	if near := nearestKey(key, known); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

// unknownKeyHint suggests the known key closest to a mistyped one, or
// lists them all when none is close.
func unknownKeyHint(key string, known []string) string {
	if hint := didYouMean(key, known); hint != "" {
		return hint
	}
	return " (known keys: " + strings.Join(known, ", ") + ")"
}

// nearestKey returns the known key within a small edit distance of key,
// for "did you mean" hints; "" when none is close. Ties go to the first
// name alphabetically.
func nearestKey(key string, known []string) string {
	best, bestDist := "", 3
	for _, k := range slices.Sorted(slices.Values(known)) {
		if d := editDistance(key, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two keys.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
