package claude

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// vimIndicators are the footer's mode indicators of Claude Code's vim
// bindings, as the footer starts: "  -- INSERT -- ⏸ manual mode on".
var vimIndicators = []struct {
	text string
	mode respawn.EditorMode
}{
	{"-- INSERT --", respawn.EditorInsert},
	{"-- VISUAL LINE --", respawn.EditorVisual},
	{"-- VISUAL --", respawn.EditorVisual},
}

// readEditorMode reads the vim mode indicator at the start of the row
// under the prompt box. Only the first footer row counts: a transcript or
// a reply may quote the indicator.
func readEditorMode(l *layout) respawn.EditorMode {
	if !l.box || l.footerStart >= len(l.rows) {
		return respawn.EditorPlain
	}
	row := strings.TrimSpace(l.rows[l.footerStart])
	for _, v := range vimIndicators {
		if strings.HasPrefix(row, v.text) {
			return v.mode
		}
	}
	return respawn.EditorPlain
}
