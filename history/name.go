package history

import (
	"fmt"
	"strconv"
	"strings"
)

// suffix ends every history file name: NAME.jsonl, NAME.jsonl.1, …
const suffix = ".jsonl"

// fileName is the current file of pane: its address with every byte that
// is not safe in a file name (a '/', a ':', a leading '.') as %XX.
func fileName(pane string) string {
	var b strings.Builder
	for i := 0; i < len(pane); i++ {
		c := pane[i]
		if safe(c) && (c != '.' || i > 0) {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String() + suffix
}

func safe(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// paneOf is the inverse of fileName: the pane of a current or rotated
// file, and the file's rotation number (0 for the current one).
func paneOf(name string) (pane string, n int, ok bool) {
	stem, found := strings.CutSuffix(name, suffix)
	if !found {
		i := strings.LastIndexByte(name, '.')
		v, err := strconv.Atoi(name[i+1:])
		if i < 0 || err != nil || v < 1 || strconv.Itoa(v) != name[i+1:] {
			return "", 0, false
		}
		if stem, found = strings.CutSuffix(name[:i], suffix); !found {
			return "", 0, false
		}
		n = v
	}
	var b strings.Builder
	for i := 0; i < len(stem); i++ {
		c := stem[i]
		if c != '%' {
			if !safe(c) {
				return "", 0, false
			}
			b.WriteByte(c)
			continue
		}
		if i+3 > len(stem) {
			return "", 0, false
		}
		v, err := strconv.ParseUint(stem[i+1:i+3], 16, 8)
		if err != nil {
			return "", 0, false
		}
		b.WriteByte(byte(v))
		i += 2
	}
	if b.Len() == 0 {
		return "", 0, false
	}
	return b.String(), n, true
}

// rotated is the name of pane's rotated file n (n ≥ 1).
func rotated(pane string, n int) string { return fileName(pane) + "." + strconv.Itoa(n) }
