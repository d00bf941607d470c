package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn/agents"
	"github.com/codeman-dev/codeman/respawn/codex"
)

// codexSession starts the simulated session in its Codex look in a new
// tmux session and returns the pane's address and its input log.
func (r *rig) codexSession(name, prompt string) (addr, log string) {
	r.t.Helper()
	exe, _ := os.Executable()
	log = filepath.Join(r.t.TempDir(), name+".jsonl")
	hookCmd := fmt.Sprintf("env CODEMAN_TEST_ROLE=hook XDG_RUNTIME_DIR=%s %s", r.env["XDG_RUNTIME_DIR"], exe)
	pane := r.tmux.NewSession(name, "env", "CODEMAN_TEST_ROLE=sim", exe, "--look", simclaude.LookCodex, "--work", "1s",
		"--seed", "7", "--log", log, "--hook-cmd", hookCmd, "--prompt", prompt)
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "› ") }, "the composer", 10*time.Second)
	return "tmux:" + r.tmux.Socket() + ":" + pane, log
}

// A pane attached with the agent left to auto is recognized as Codex by
// its screen (the program is this test binary) and cycled the Codex way:
// the update prompt naming AGENTS.md, /new, /init, the kickstart, each
// submitted (the 250 ms pause keeps Enter out of Codex's paste window)
// and none while the session worked.
func TestDaemon_CyclesCodexPaneInOrder(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.codexSession("codex", "hello there")
	st, err := r.client.Attach(context.Background(), AttachRequest{Pane: addr})
	if err != nil || st.Agent != codex.Name {
		t.Fatalf("attach: agent %q, %v; want it recognized as codex", st.Agent, err)
	}
	info, err := agents.Lookup(codex.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info.UpdatePrompt, "AGENTS.md") {
		t.Fatalf("Codex's update prompt %q does not name AGENTS.md", info.UpdatePrompt)
	}
	want := []string{info.UpdatePrompt, "/new", "/init", "go on with the next task"}
	r.waitFor("a full Codex cycle", 60*time.Second, func() bool { return hasPrefix(submits(t, log), want) })
	assertNothingWhileBusy(t, log)

	entries, err := simclaude.ReadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Key == "enter" && e.Text == "\n" {
			t.Errorf("an Enter reached the session inside a paste burst, as a newline: %+v", e)
		}
	}
	status, err := r.client.Pane(context.Background(), addr, 50)
	if err != nil {
		t.Fatal(err)
	}
	if status.Status.Cycles < 1 || !status.HooksActive {
		t.Fatalf("status = cycles %d, hooks active %t; want a cycle with Codex's hooks seen", status.Status.Cycles, status.HooksActive)
	}
}

// A daemon restart keeps each pane's agent: one recognized when it was
// attached is recognized again on adoption, one set outright comes back
// with its persisted setting, even on a pane that shows no agent at all.
func TestDaemon_AgentSurvivesRestart(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	recognized, _ := r.codexSession("codex", "hello there")
	shell := "tmux:" + r.tmux.Socket() + ":" + r.tmux.NewSession("shell", "sh")
	r.attach(recognized)
	r.attach(shell, "agent=codex")

	r.stopDaemon()
	r.start()
	panes, err := r.client.Panes(context.Background())
	if err != nil || len(panes) != 2 {
		t.Fatalf("adopted %+v, %v; want both panes", panes, err)
	}
	for _, p := range panes {
		if p.Agent != codex.Name || p.Problem != "" {
			t.Errorf("%s adopted as agent %q (problem %q), want codex", p.Pane, p.Agent, p.Problem)
		}
	}
}
