package codexhooks

import (
	"strings"
	"testing"
)

// Lines that look like headers inside strings and arrays are not tables,
// and an existing hash is replaced in place, its key spelling and comment
// kept.
func TestApplyState_Text(t *testing.T) {
	const key = "/h/.codex/hooks.json:stop:0:0"
	in := `notes = """
[hooks.state."/h/.codex/hooks.json:stop:0:0"]
trusted_hash = "not a table"
"""
matrix = [
  [1, 2], # a comment ]
  ['[x]'],
]

[ hooks . state . '/h/.codex/hooks.json:stop:0:0' ]
trusted_hash   =   "sha256:old"   # codeman's
enabled = true

[hooks.state."/h/.codex/hooks.json:stop:1:0"]
trusted_hash = "sha256:gone"
`
	out, err := applyState("config.toml", []byte(in), stateEdit{
		set: map[string]string{key: "sha256:new"}, keys: []string{key},
		drop:      []string{"/h/.codex/hooks.json:stop:1:0"},
		dropTable: map[string]bool{"/h/.codex/hooks.json:stop:1:0": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(in, `"sha256:old"`, `"sha256:new"`, 1)
	want = strings.TrimSuffix(want, "\n[hooks.state.\"/h/.codex/hooks.json:stop:1:0\"]\ntrusted_hash = \"sha256:gone\"\n")
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// A hash under [hooks.state] as a dotted key is edited where it is.
func TestApplyState_DottedKey(t *testing.T) {
	const key = "/h/hooks.json:stop:0:0"
	in := "[hooks.state]\n\"/h/hooks.json:stop:0:0\".trusted_hash = \"sha256:old\"\n\"/h/hooks.json:stop:1:0\".trusted_hash = \"sha256:x\"\n"
	out, err := applyState("config.toml", []byte(in), stateEdit{set: map[string]string{key: "sha256:new"}, keys: []string{key}})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(in, "old", "new", 1); string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, err = applyState("config.toml", []byte(in), stateEdit{drop: []string{key}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[hooks.state]\n\"/h/hooks.json:stop:1:0\".trusted_hash = \"sha256:x\"\n"; string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// State written as an inline table cannot be edited as lines: refused,
// not damaged.
func TestApplyState_InlineTableRefused(t *testing.T) {
	const key = "/h/hooks.json:stop:0:0"
	in := "[hooks.state]\n\"/h/hooks.json:stop:0:0\" = { enabled = true }\n"
	if _, err := applyState("config.toml", []byte(in), stateEdit{set: map[string]string{key: "sha256:new"}, keys: []string{key}}); err == nil {
		t.Error("inline table edited")
	}
}

func TestTomlQuote(t *testing.T) {
	if got := tomlQuote("a\"b\\c\n"); got != `"a\"b\\c\u000A"` {
		t.Errorf("tomlQuote = %s", got)
	}
}
