package simclaude_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

// codeman's Codex reader must read the same facts from the Codex look's
// screens as from the real CLI's in each recorded situation, and
// recognize the agent by them.
func TestCodexLook_ClassifiedLikeTheRealScreens(t *testing.T) {
	reader := codex.New()
	for name, rows := range simclaude.CodexSituations(t) {
		t.Run(name, func(t *testing.T) {
			real := recordedScreen(t, name)
			sim := respawn.Screen{Lines: rows, Width: 200, Height: len(rows)}
			if got, want := facts(reader.Classify(sim)), facts(reader.Classify(real)); got != want {
				t.Errorf("facts of the look:\n got %s\nwant %s (the real screen's)", got, want)
			}
			if agent, _, _ := agents.Recognize("", sim); name == "idle" && agent != codex.Name {
				t.Errorf("the idle look is recognized as %q, want codex", agent)
			}
		})
	}
}

// facts are the parts of ScreenFacts codeman decides by.
func facts(f respawn.ScreenFacts) string {
	return fmt.Sprintf("prompt=%t input=%q working=%t completion=%t permission=%t dialog=%t question=%t plan=%t api_error=%q usage_limit=%q",
		f.PromptBox, f.Input, f.Working, f.Completion, f.Permission, f.Dialog, f.Question, f.PlanMenu, f.APIError, f.UsageLimit)
}

func recordedScreen(t *testing.T, situation string) respawn.Screen {
	t.Helper()
	return screenOf(t, filepath.Join("..", "..", "agents", "codex", "testdata", "screens", "v0.171.0-"+situation+".txt"))
}

// screenOf reads a recorded 200-column screen.
func screenOf(t *testing.T, path string) respawn.Screen {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return respawn.Screen{Lines: lines, Width: 200, Height: len(lines)}
}
