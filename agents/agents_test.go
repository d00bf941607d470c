package agents_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/respawn"
)

func screenFile(t *testing.T, path string) respawn.Screen {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return respawn.Screen{Lines: strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")}
}

// reader is a's reader without extra patterns.
func reader(t *testing.T, a agents.Info) respawn.Agent {
	t.Helper()
	r, err := a.New(nil)
	if err != nil {
		t.Fatalf("%s: New(nil): %v", a.Name, err)
	}
	return r
}

// The pane's program names the agent first; a screen of the real CLIs
// names it when the program does not (a node wrapper, a shell, GNU screen).
func TestRecognize(t *testing.T) {
	claude := screenFile(t, "claude/testdata/screens/12-idle-manual-mode-clean.txt")
	codexIdle := screenFile(t, "codex/testdata/screens/v0.171.0-idle.txt")
	codexWorking := screenFile(t, "codex/testdata/screens/v0.171.0-working.txt")
	copilotIdle := screenFile(t, "copilot/testdata/screens/v1.0.102-idle.txt")
	copilotWorking := screenFile(t, "copilot/testdata/screens/v1.0.102-working.txt")
	opencodeDone := screenFile(t, "opencode/testdata/screens/v1.18.33-done.txt")
	opencodeStart := screenFile(t, "opencode/testdata/screens/v1.18.33-after-new.txt")
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
		{"CopilotProgram", "copilot", blank, "copilot"},
		{"CopilotScreen", "node", copilotIdle, "copilot"},
		{"CopilotScreenWorking", "", copilotWorking, "copilot"},
		{"OpenCodeProgram", "opencode", blank, "opencode"},
		{"OpenCodeScreen", "node", opencodeDone, "opencode"},
		{"OpenCodeStartScreen", "bun", opencodeStart, "opencode"},
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
		if err != nil || a.Name != name || reader(t, a).Name() != name {
			t.Errorf("Lookup(%q) = %+v, %v; its reader must carry the same name", name, a, err)
		}
		// The controller's reasons name the agent by its label.
		if l := reader(t, a).Label(); l == "" || labels[l] || !strings.HasPrefix(a.Label, l) {
			t.Errorf("%s: label %q is empty, taken, or not its name's start (%q)", name, l, a.Label)
		}
		labels[reader(t, a).Label()] = true
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
	if !strings.Contains(codex.UpdatePrompt, "AGENTS.md") || reader(t, codex).Command(respawn.StepInit) != "/init" {
		t.Errorf("codex update prompt %q", codex.UpdatePrompt)
	}
	copilot, _ := agents.Lookup("copilot")
	if !strings.Contains(copilot.UpdatePrompt, ".github/copilot-instructions.md") || reader(t, copilot).Command(respawn.StepClear) != "/clear" {
		t.Errorf("copilot update prompt %q, clear %q", copilot.UpdatePrompt, reader(t, copilot).Command(respawn.StepClear))
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
		"claude": {"claude/testdata/screens/12-idle-manual-mode-clean.txt", "claude/testdata/screens/06-reply-done.txt"},
		"codex":  {"codex/testdata/screens/v0.171.0-idle.txt", "codex/testdata/screens/v0.171.0-done.txt", "codex/testdata/screens/v0.171.0-turn-done.txt"},
		"copilot": {"copilot/testdata/screens/v1.0.102-idle.txt", "copilot/testdata/screens/v1.0.102-done.txt",
			"copilot/testdata/screens/v1.0.102-typed.txt"},
		"opencode": {"opencode/testdata/screens/v1.18.33-done.txt", "opencode/testdata/screens/v1.18.33-typed.txt",
			"opencode/testdata/screens/v1.18.33-after-new.txt"},
	}
	for _, a := range agents.List() {
		for owner, paths := range screens {
			for _, path := range paths {
				f := reader(t, a).Classify(screenFile(t, path))
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

// Each agent builds its reader from the config file's extra patterns:
// Claude Code's table takes them after its own and refuses one that does
// not compile, naming it; Codex's reader has no table and goes without.
func TestNewWithExtraPatterns(t *testing.T) {
	extra := []respawn.PatternSpec{{Name: "my_spinner", Kind: "working", Regexp: `^◆ Thinking hard$`, Line: 12}}
	screen := respawn.Screen{Lines: []string{"◆ Thinking hard"}}
	claude, _ := agents.Lookup("claude")
	r, err := claude.New(extra)
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Classify(screen); !f.Working || !slices.Contains(f.Evidence, "my_spinner: ◆ Thinking hard") {
		t.Errorf("claude with a user pattern reads %+v; want working by my_spinner", f)
	}
	if f := reader(t, claude).Classify(screen); f.Working {
		t.Errorf("claude without extra patterns reads a user pattern's row as working")
	}
	bad := []respawn.PatternSpec{{Name: "broken", Kind: "working", Regexp: `(`, Line: 7}}
	if _, err := claude.New(bad); err == nil || !strings.Contains(err.Error(), `"broken"`) || !strings.Contains(err.Error(), "line 7") {
		t.Errorf("claude with a broken pattern: error %v, want one naming it and its line", err)
	}
	codex, _ := agents.Lookup("codex")
	r, err = codex.New(append(extra, bad...))
	if err != nil || r.Name() != "codex" {
		t.Errorf("codex with extra patterns = %v, %v; want its reader", r, err)
	}
}
