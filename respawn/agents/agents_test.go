package agents_test

import (
	"os"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/agents"
)

func screenFile(t *testing.T, path string) respawn.Screen {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return respawn.Screen{Lines: strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")}
}

// The pane's program names the agent first; a screen of the real CLIs
// names it when the program does not (a node wrapper, a shell, GNU screen).
func TestRecognize(t *testing.T) {
	claude := screenFile(t, "../testdata/screens/12-idle-manual-mode-clean.txt")
	codexIdle := screenFile(t, "../testdata/codex/screens/v0.171.0-idle.txt")
	codexWorking := screenFile(t, "../testdata/codex/screens/v0.171.0-working.txt")
	blank := respawn.Screen{Lines: []string{"$ ls", "a b c", "$"}}
	tests := []struct {
		name, command string
		screen        respawn.Screen
		want          string // "" when not recognized
	}{
		{"CodexProgram", "codex", blank, "codex"},
		{"CodexPath", "/usr/local/bin/codex", blank, "codex"},
		{"ClaudeProgram", "claude", blank, "claude"},
		{"ProgramBeatsScreen", "claude", codexIdle, "claude"},
		{"ClaudeScreen", "node", claude, "claude"},
		{"CodexScreen", "node", codexIdle, "codex"},
		{"CodexScreenWorking", "", codexWorking, "codex"},
		{"Shell", "bash", blank, ""},
		{"Nothing", "", respawn.Screen{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, why, ok := agents.Recognize(tt.command, tt.screen)
			if tt.want == "" {
				if ok {
					t.Fatalf("recognized %q (%s) in a pane of neither", name, why)
				}
				return
			}
			if !ok || name != tt.want || why == "" {
				t.Fatalf("Recognize = %q, %q, %t; want %q with a reason", name, why, ok, tt.want)
			}
		})
	}
}

func TestByProgram(t *testing.T) {
	for command, want := range map[string]string{
		"codex": "codex", "/usr/local/bin/codex": "codex", "claude": "claude",
		"node": "", "bash": "", "": "", "codex-helper": "",
	} {
		got, ok := agents.ByProgram(command)
		if got != want || ok != (want != "") {
			t.Errorf("ByProgram(%q) = %q, %t; want %q", command, got, ok, want)
		}
	}
}

func TestLookup(t *testing.T) {
	labels := map[string]bool{}
	for _, name := range agents.Names() {
		a, err := agents.Lookup(name)
		if err != nil || a.Name != name || a.New(nil).Name() != name {
			t.Errorf("Lookup(%q) = %+v, %v; its reader must carry the same name", name, a, err)
		}
		// The controller's reasons name the agent by its label.
		if l := a.New(nil).Label(); l == "" || labels[l] || !strings.HasPrefix(a.Label, l) {
			t.Errorf("%s: label %q is empty, taken, or not its name's start (%q)", name, l, a.Label)
		}
		labels[a.New(nil).Label()] = true
	}
	if _, err := agents.Lookup("gemini"); err == nil || !strings.Contains(err.Error(), `"gemini"`) || !strings.Contains(err.Error(), "codex") {
		t.Errorf("Lookup(gemini) error %v, want one naming it and the agents", err)
	}
	if agents.Valid(agents.Auto) != nil || agents.Valid("codex") != nil || agents.Valid("") == nil {
		t.Error("Valid must take auto and every agent, and nothing else")
	}
	if got := agents.Names()[0]; got != agents.Default {
		t.Errorf("first agent %q, want the default %q", got, agents.Default)
	}
}

// Each agent's default update prompt names the memory file its /init
// writes.
func TestUpdatePrompt(t *testing.T) {
	codex, _ := agents.Lookup("codex")
	if !strings.Contains(codex.UpdatePrompt, "AGENTS.md") || codex.New(nil).Command(respawn.StepInit) != "/init" {
		t.Errorf("codex update prompt %q", codex.UpdatePrompt)
	}
	if !strings.Contains(respawn.DefaultUpdatePrompt, "CLAUDE.md") {
		t.Errorf("the default update prompt %q no longer names CLAUDE.md", respawn.DefaultUpdatePrompt)
	}
}

// A pane attached as the wrong agent is never typed into: each agent's
// reader finds no prompt box and no finished turn on the other's screens,
// so the controller's guards hold every step.
func TestWrongAgentSeesNoPromptBox(t *testing.T) {
	screens := map[string][]string{
		"claude": {"../testdata/screens/12-idle-manual-mode-clean.txt", "../testdata/screens/06-reply-done.txt"},
		"codex":  {"../testdata/codex/screens/v0.171.0-idle.txt", "../testdata/codex/screens/v0.171.0-done.txt", "../testdata/codex/screens/v0.171.0-turn-done.txt"},
	}
	for _, a := range agents.List() {
		for owner, paths := range screens {
			for _, path := range paths {
				f := a.New(nil).Classify(screenFile(t, path))
				if owner == a.Name {
					if !f.PromptBox {
						t.Errorf("%s finds no prompt box on its own screen %s", a.Name, path)
					}
					continue
				}
				if f.PromptBox || f.Completion {
					t.Errorf("%s reads %s's screen %s as prompt box %t, turn over %t", a.Name, owner, path, f.PromptBox, f.Completion)
				}
			}
		}
	}
}
