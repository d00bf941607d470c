package simclaude

import (
	"testing"
	"time"
)

// CodexSituations exposes the Codex look's screens in the recorded
// situations, by name, to the classifier check of package simclaude_test,
// which may import respawn where this package may not.
func CodexSituations(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for _, c := range codexSituations(t) {
		out[c.name] = c.screen
	}
	return out
}

// CopilotSituations does the same for the Copilot look.
func CopilotSituations(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for _, c := range copilotSituations(t) {
		out[c.name] = c.screen
	}
	return out
}

// OpenCodeSituations does the same for the OpenCode look.
func OpenCodeSituations(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for _, c := range opencodeSituations(t) {
		out[c.name] = c.screen
	}
	return out
}

// OpenCodeScreen is the OpenCode look's screen after prompts, each
// given d to work.
func OpenCodeScreen(t *testing.T, d time.Duration, prompts ...string) []string {
	s := newOpenCodeSim(t, "", nil)
	for _, p := range prompts {
		s.submit(p)
		s.after(d)
	}
	return s.screen()
}
