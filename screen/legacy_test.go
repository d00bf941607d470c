package screen

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/respawn"
)

// loseHighBytes writes rows the way screen 4.x hardcopy does: each cell's
// low byte, a 0xFF filler after a wide character, trailing spaces cut.
func loseHighBytes(rows []string) []byte {
	var out []byte
	for _, row := range rows {
		var cells []byte
		for _, r := range row {
			cells = append(cells, byte(r))
			if runewidth.RuneWidth(r) == 2 {
				cells = append(cells, legacyFiller)
			}
		}
		for len(cells) > 0 && cells[len(cells)-1] == ' ' {
			cells = cells[:len(cells)-1]
		}
		out = append(append(out, cells...), '\n')
	}
	return out
}

func decodeLegacy(b []byte) []string {
	var rows []string
	splitRows(b, func(_ int, row []byte) {
		text, _ := decodeLegacyRow(row)
		rows = append(rows, text)
	})
	return rows
}

func readScreenFixture(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestLegacyDecode_ClaudeScreens(t *testing.T) {
	files, err := filepath.Glob("testdata/claude-screens/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no screen fixtures: %v", err)
	}
	patterns := claude.DefaultPatterns()
	rowsTotal, rowsExact := 0, 0
	for _, f := range files {
		want := readScreenFixture(t, f)
		got := decodeLegacy(loseHighBytes(want))
		for i := range want {
			rowsTotal++
			if i < len(got) && got[i] == strings.TrimRight(want[i], " ") {
				rowsExact++
			} else if i < len(got) {
				t.Logf("%s row %d:\n want %q\n  got %q", filepath.Base(f), i, want[i], got[i])
			}
		}
		wf := patterns.Classify(respawn.Screen{Lines: want})
		gf := patterns.Classify(respawn.Screen{Lines: got})
		wf.Evidence, gf.Evidence = nil, nil
		if !reflect.DeepEqual(wf, gf) {
			t.Errorf("%s: facts differ after the screen 4 loss:\n want %+v\n  got %+v", filepath.Base(f), wf, gf)
		}
	}
	t.Logf("%d of %d rows exact", rowsExact, rowsTotal)
}

// The Codex CLI's composer survives the screen 4 loss: the Codex agent
// finds it, and the text in it, on every real screen as on the exact one.
// Without it Codex never looks idle in a screen 4 window.
func TestLegacyDecode_CodexComposer(t *testing.T) {
	files, err := filepath.Glob("../agents/codex/testdata/screens/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Codex screen fixtures: %v", err)
	}
	a := codex.New()
	for _, f := range files {
		want := readScreenFixture(t, f)
		wf := a.Classify(respawn.Screen{Lines: want})
		gf := a.Classify(respawn.Screen{Lines: decodeLegacy(loseHighBytes(want))})
		if gf.PromptBox != wf.PromptBox || gf.Input != wf.Input {
			t.Errorf("%s: composer %t %q after the screen 4 loss, want %t %q", filepath.Base(f), gf.PromptBox, gf.Input, wf.PromptBox, wf.Input)
		}
	}
}

func TestDecodeLegacyRow(t *testing.T) {
	tests := []struct {
		name string
		row  []byte
		want string
	}{
		{"Rule", []byte{0, 0, 0, 0}, "────"},
		{"EmptyInputRow", []byte{'o', 0xA0}, "❯\u00a0"},
		{"PromptEcho", []byte("o fix the tests"), "❯ fix the tests"},
		{"MenuSelector", []byte("o 1. Yes, and use auto mode"), "❯ 1. Yes, and use auto mode"},
		{"CodexComposer", []byte(": Ask Codex to do anything"), "› Ask Codex to do anything"},
		{"CodexOption", []byte(": 1. Yes, proceed (y)"), "› 1. Yes, proceed (y)"},
		{"StatusLine", []byte("6 Sublimating& (32s \xb7 \x91 1.2k tokens)"), "✶ Sublimating… (32s · ↑ 1.2k tokens)"},
		{"Completion", []byte("; Baked for 1m 11s \xb7 done 6:54 PM"), "✻ Baked for 1m 11s · done 6:54 PM"},
		// 中 (U+4E2D) and 文 (U+6587) are lost for good: "-" and a C1
		// byte nothing maps; their filler cells are dropped.
		{"WideAndLatin1", []byte("caf\xe9 -\xff\x87\xff"), "café -\uFFFD"},
		{"ToolHint", []byte("  \xbf  Listed 1 directory"), "  ⎿  Listed 1 directory"},
		{"Footer", []byte("  \xf5\xf5 auto mode on"), "  ⏵⏵ auto mode on"},
		{"DashedRule", []byte("  LLLL"), "  ╌╌╌╌"},
		{"Box", []byte{' ', 'm', 0, 0, 'n'}, " ╭──╮"},
		{"TickedBox", []byte("  3. [\x14] Tracing"), "  3. [✔] Tracing"},
		{"EmDash", []byte("  a \x14 b"), "  a — b"},
		{"UnknownControl", []byte{'a', 0x05}, "a\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cells := decodeLegacyRow(tt.row)
			if got != tt.want {
				t.Errorf("decodeLegacyRow(%q) = %q, want %q", tt.row, got, tt.want)
			}
			if cells != len(tt.row) {
				t.Errorf("cells = %d, want %d", cells, len(tt.row))
			}
		})
	}
}

// Text that only looks like a lost glyph stays as it is.
func TestDecodeLegacyRow_Traps(t *testing.T) {
	for _, row := range []string{
		"  R&D and AT&T",
		"  Tom & Jerry",
		"; comment in column 0",
		"3 apples",
		"  6 Things indented",
		"hello world",
		"  solo o",
		"LLM",
		"  x = y",
		"note: column 0",
		"mnop",
	} {
		if got, _ := decodeLegacyRow([]byte(row)); got != row {
			t.Errorf("decodeLegacyRow(%q) = %q, want it unchanged", row, got)
		}
	}
}
