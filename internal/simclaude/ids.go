package simclaude

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
)

// newUUID returns a version 4 UUID drawn from r, so --seed makes session and
// prompt ids reproducible.
func newUUID(r *rand.Rand) string {
	hi, lo := r.Uint64(), r.Uint64()
	hi = hi&^0xf000 | 0x4000           // version 4
	lo = lo&^(0xc000<<48) | 0x8000<<48 // RFC 4122 variant
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newToolUseID returns an id shaped like the API's (toolu_01 + 22 base62).
func newToolUseID(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("toolu_01")
	for range 22 {
		b.WriteByte(base62[r.IntN(len(base62))])
	}
	return b.String()
}

// newAgentID returns a subagent id shaped like "a4033cd572bbb5381".
func newAgentID(r *rand.Rand) string {
	return fmt.Sprintf("a%016x", r.Uint64())
}

// projectKey is how Claude Code names a project directory under
// ~/.claude/projects: every "/" and "." becomes "-".
func projectKey(cwd string) string {
	return strings.NewReplacer("/", "-", ".", "-").Replace(filepath.Clean(cwd))
}
