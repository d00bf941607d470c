package claude

import (
	"testing"

	"github.com/codeman-dev/codeman/respawn"
)

// TestEditorMode_Fixtures reads the vim mode indicator of real Claude Code
// 2.1.332 screens with editorMode "vim".
func TestEditorMode_Fixtures(t *testing.T) {
	p := DefaultPatterns()
	for _, tc := range []struct {
		file string
		want respawn.EditorMode
	}{
		{"v2.1.332-vim-insert-idle.txt", respawn.EditorInsert},
		{"v2.1.332-vim-insert-working.txt", respawn.EditorInsert},
		{"v2.1.332-vim-visual.txt", respawn.EditorVisual},
		// NORMAL mode shows no indicator: one screen cannot tell it from vim off.
		{"v2.1.332-vim-normal-idle.txt", respawn.EditorPlain},
		{"v2.1.332-vim-normal-garbled.txt", respawn.EditorInsert},
		{"v2.1.332-pasted-text.txt", respawn.EditorPlain},
		{"12-idle-manual-mode-clean.txt", respawn.EditorPlain},
		{"06-reply-done.txt", respawn.EditorPlain},
	} {
		if got := p.Classify(screenFixture(t, tc.file)).EditorMode; got != tc.want {
			t.Errorf("%s: EditorMode = %q, want %q", tc.file, got, tc.want)
		}
	}
}
