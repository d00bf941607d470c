package demo

import (
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/agents"
)

// Copilot's simulated session runs with the flag that lets its /init
// write without the permission prompt codeman does not answer; the
// others run as they are.
func TestSimCommand(t *testing.T) {
	for _, a := range agents.List() {
		if a.Sim.Look == "" {
			continue
		}
		args := simCommand("codeman", a, "/tmp/log")
		allowed := slices.Equal(args[len(args)-2:], []string{"--allow-tool", "write"})
		if allowed != (a.Name == "copilot") {
			t.Errorf("%s's simulated session runs as %q", a.Name, args)
		}
		if len(a.Sim.Args) > 0 && a.Sim.Why == "" {
			t.Errorf("%s's simulated session's arguments %q go unexplained in the story", a.Name, a.Sim.Args)
		}
	}
}
