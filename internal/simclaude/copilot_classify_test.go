package simclaude_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/copilot"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

var retryWait = regexp.MustCompile(`\d+\.\d\d seconds`)

func recognized(s respawn.Screen) string {
	agent, _, _ := agents.Recognize("", s)
	return agent
}

// codeman's Copilot reader must read the same facts from the Copilot
// look's screens as from the real CLI's in each recorded situation, and
// be recognized as the real one is.
func TestCopilotLook_ClassifiedLikeTheRealScreens(t *testing.T) {
	reader := copilot.New()
	for name, rows := range simclaude.CopilotSituations(t) {
		t.Run(name, func(t *testing.T) {
			real := screenOf(t, filepath.Join("..", "..", "agents", "copilot", "testdata", "screens", "v1.0.102-"+name+".txt"))
			sim := respawn.Screen{Lines: rows, Width: 200, Height: len(rows)}
			// The look's retries wait its own time.
			got, want := retryWait.ReplaceAllString(facts(reader.Classify(sim)), "N"), retryWait.ReplaceAllString(facts(reader.Classify(real)), "N")
			if got != want {
				t.Errorf("facts of the look:\n got %s\nwant %s (the real screen's)", got, want)
			}
			if got, _, _ := agents.Recognize("", sim); got != recognized(real) {
				t.Errorf("the look is recognized as %q, the real screen as %q", got, recognized(real))
			}
		})
	}
}
