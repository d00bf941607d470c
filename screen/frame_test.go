package screen

import (
	"strings"
	"testing"
)

// hardcopy builds hardcopy bytes from rows.
func hardcopy(rows ...string) []byte {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.TrimRight(r, " ") + "\n")
	}
	return []byte(b.String())
}

func TestFrame_UpdateReportsChangedRows(t *testing.T) {
	var f frame
	if !f.update(hardcopy("one", "two", "", "four"), decodeUTF8Row) {
		t.Fatal("first update reported no change")
	}
	first := f.rows
	if f.update(hardcopy("one", "two", "", "four"), decodeUTF8Row) {
		t.Error("same hardcopy reported as a change")
	}
	if !f.update(hardcopy("one", "TWO", "", "four", "five"), decodeUTF8Row) {
		t.Fatal("changed hardcopy reported no change")
	}
	if got := join(f.changed); got != "1,4" {
		t.Errorf("changed rows = %s, want 1,4", got)
	}
	if strings.Join(first, "|") != "one|two||four" {
		t.Errorf("an earlier frame's rows were modified: %q", first)
	}
	if strings.Join(f.rows, "|") != "one|TWO||four|five" {
		t.Errorf("rows = %q", f.rows)
	}
}

func TestFrame_UpdateUnchangedDoesNotAllocate(t *testing.T) {
	var f frame
	b := hardcopy(strings.Repeat("─", 200), "❯\u00a0", strings.Repeat("─", 200), "  ⏸ manual mode on")
	f.update(b, decodeUTF8Row)
	allocs := testing.AllocsPerRun(100, func() {
		if f.update(b, decodeUTF8Row) {
			t.Fatal("unchanged hardcopy reported as changed")
		}
	})
	if allocs != 0 {
		t.Errorf("unchanged update allocated %v times, want 0", allocs)
	}
}

func TestFrame_AppendOutput(t *testing.T) {
	const width = 10
	tests := []struct {
		name   string
		before []string
		after  []string
		want   string
	}{
		{
			name:   "ChangedRowsOnly",
			before: []string{"a", "b", "c"},
			after:  []string{"a", "B", "C"},
			want:   "B\nC\n",
		},
		{
			name:   "WrappedLineJoined",
			before: []string{"x", "", ""},
			after:  []string{"x", "✻ Sublimat", "ing… (3s)"},
			want:   "✻ Sublimating… (3s)\n",
		},
		{
			name:   "ContinuationChangeWritesWholeLine",
			before: []string{"0123456789", "abcdefghij", "end", "tail"},
			after:  []string{"0123456789", "abcdefghij", "END", "tail"},
			want:   "0123456789abcdefghijEND\n",
		},
		{
			name:   "FullRowThenBlankRowIsTwoLines",
			before: []string{"", "", "z"},
			after:  []string{"0123456789", "", "z"},
			want:   "0123456789\n",
		},
		{
			name:   "ClearedRowIsAnEmptyLine",
			before: []string{"a", "b"},
			after:  []string{"a", ""},
			want:   "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f frame
			f.update(hardcopy(tt.before...), decodeUTF8Row)
			f.update(hardcopy(tt.after...), decodeUTF8Row)
			if got := string(f.appendOutput(nil, width)); got != tt.want {
				t.Errorf("output = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFrame_AppendOutputWithoutWidthJoinsNothing(t *testing.T) {
	var f frame
	f.update(hardcopy("", ""), decodeUTF8Row)
	f.update(hardcopy("0123456789", "more"), decodeUTF8Row)
	if got := string(f.appendOutput(nil, 0)); got != "0123456789\nmore\n" {
		t.Errorf("output = %q", got)
	}
}

func TestFrame_WideCharactersCountTwoCells(t *testing.T) {
	var f frame
	f.update(hardcopy(""), decodeUTF8Row)
	f.update(hardcopy("中文中文中", "x"), decodeUTF8Row) // 5 wide characters fill 10 cells
	if got := string(f.appendOutput(nil, 10)); got != "中文中文中x\n" {
		t.Errorf("output = %q, want the wide row joined with the next", got)
	}
	f.update(hardcopy(string([]byte{'-', legacyFiller, 0x87, legacyFiller, 'a'})), decodeLegacyRow)
	if f.cells[0] != 5 {
		t.Errorf("legacy row with fillers covers %d cells, want 5", f.cells[0])
	}
}

func join(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(rune('0' + n))
	}
	return strings.Join(s, ",")
}
