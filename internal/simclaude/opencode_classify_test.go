package simclaude_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/opencode"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

// codeman's OpenCode reader must read the same facts from the OpenCode
// look's screens as from the real CLI's in each recorded situation, and
// recognize them as it recognizes the real ones. Where the look's
// transcript is not the recording's, the error a failed turn shows is
// compared as present or not.
func TestOpenCodeLook_ClassifiedLikeTheRealScreens(t *testing.T) {
	reader := opencode.New()
	for name, rows := range simclaude.OpenCodeSituations(t) {
		t.Run(name, func(t *testing.T) {
			real := screenOf(t, filepath.Join("..", "..", "agents", "opencode", "testdata", "screens", "v1.18.33-"+name+".txt"))
			sim := respawn.Screen{Lines: rows, Width: 200, Height: len(rows)}
			gotF, wantF := reader.Classify(sim), reader.Classify(real)
			if got, want := opencodeFacts(gotF), opencodeFacts(wantF); got != want {
				t.Errorf("facts of the look:\n got %s\nwant %s (the real screen's)", got, want)
			}
			if gotF.BlockerText != wantF.BlockerText {
				t.Errorf("BlockerText %q, the real screen's %q", gotF.BlockerText, wantF.BlockerText)
			}
			if got, want := reader.Recognize(sim), reader.Recognize(real); got != want {
				t.Errorf("the reader recognizes the look: %t, the real screen: %t", got, want)
			}
			if got, _, _ := agents.Recognize("", sim); got != recognized(real) {
				t.Errorf("the look is recognized as %q, the real screen as %q", got, recognized(real))
			}
		})
	}
}

// opencodeFacts are facts with the API error's text reduced to whether
// there is one.
func opencodeFacts(f respawn.ScreenFacts) string {
	if f.APIError != "" {
		f.APIError = "<error>"
	}
	return facts(f)
}

// The look's usage limit is a failed turn the reader takes for one, with
// no reset time. (A turn first: the reader does not find the error of a
// session's first turn, whose footer has the sidebar's "LSP" row above.)
func TestOpenCodeLook_UsageLimit(t *testing.T) {
	rows := simclaude.OpenCodeScreen(t, 4*time.Second, "say hello", "hit the usage limit")
	f := opencode.New().Classify(respawn.Screen{Lines: rows, Width: 200, Height: len(rows)})
	if f.UsageLimit == "" || f.APIError != "" || f.Working {
		t.Fatalf("facts %s", facts(f))
	}
	ul, ok := opencode.New().FindUsageLimit(strings.Join(rows, "\n"), time.Now())
	if !ok || !ul.ResetAt.IsZero() {
		t.Errorf("FindUsageLimit = %+v, %v", ul, ok)
	}
}
