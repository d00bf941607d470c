package respawn

import (
	"testing"
)

// TestPromptReader_RemembersVim: NORMAL mode is a box without an indicator
// in a pane that showed one; a pane that never did reads as vim off.
func TestPromptReader_RemembersVim(t *testing.T) {
	normal := screenFixture(t, "v2.1.332-vim-normal-idle.txt")
	r := NewPromptReader(claudeReader.Classify)
	if got := r.Read(normal).EditorMode; got != EditorPlain {
		t.Fatalf("before any indicator: %q, want plain", got)
	}
	r.Observe(screenFixture(t, "v2.1.332-vim-insert-working.txt"))
	if got := r.Read(normal).EditorMode; got != EditorNormal {
		t.Fatalf("after INSERT was seen: %q, want normal", got)
	}
	r.vimOff()
	if got := r.Read(normal).EditorMode; got != EditorPlain {
		t.Fatalf("after vim was found off: %q, want plain", got)
	}
	if got := r.Read(screenFixture(t, "v2.1.332-vim-visual.txt")).EditorMode; got != EditorVisual {
		t.Fatalf("VISUAL: %q", got)
	}
	if got := r.Read(normal).EditorMode; got != EditorNormal {
		t.Fatalf("after VISUAL was read: %q, want normal", got)
	}
	var nilReader *PromptReader
	nilReader.Observe(normal) // a terminal without a reader observes nothing
}

func TestBoxShows(t *testing.T) {
	six := "line one\nline two\nline three\nline four\nline five\nline six"
	for _, tc := range []struct {
		input, text string
		want        bool
	}{
		{"write a brief progress summary", "write a brief progress summary", true},
		// The box wraps long text; rows are joined with newlines.
		{"write a brief progress\nsummary", "write a brief progress summary", true},
		{"brief progress summary", "write a brief progress summary", false},
		{"write a brief progress summaryi", "write a brief progress summary", false},
		{"", "hi", false},
		{"[Pasted text #1 +5 lines]", six, true},
		{"[Pasted text #2 +5 lines]", six, true},
		{"[Pasted text #1 +4 lines]", six, false},
		{"[Pasted text #1]", six, true},
		{"[Pasted Content 1200 chars]", string(make([]rune, 1200)), true},
		{"[Pasted Content 1199 chars]", string(make([]rune, 1200)), false},
	} {
		if got := boxShows(tc.input, tc.text); got != tc.want {
			t.Errorf("boxShows(%q, %.20q) = %t, want %t", tc.input, tc.text, got, tc.want)
		}
	}
}
