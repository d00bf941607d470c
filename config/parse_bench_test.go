package config_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/config"
)

// patternsFile is a config file of n [[pattern]] tables.
func patternsFile(n int) []byte {
	var b strings.Builder
	b.WriteString("[respawn]\nupdate_prompt = \"go on\"\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[[pattern]]\nname = \"p%d\"\nkind = \"working\"\nregexp = 'Thinking %d'\n\n", i, i)
	}
	return []byte(b.String())
}

// The daemon parses the config for every attach: the time of many
// [[pattern]] tables grows with their number, not its square.
func BenchmarkParse_Patterns(b *testing.B) {
	for _, n := range []int{100, 1000, 2000, 20000} {
		data := patternsFile(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := config.Parse("config.toml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
