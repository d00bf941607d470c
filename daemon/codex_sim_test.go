package daemon

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// codexSession starts the simulated session in its Codex look in a new
// tmux session and returns the pane's address and its input log.
func (r *rig) codexSession(name, prompt string) (addr, log string) {
	r.t.Helper()
	return r.lookSession(name, prompt, "› ", "--look", simclaude.LookCodex)
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
	r.cyclesAgentPane(addr, log, codex.Name, "AGENTS.md", "/new")
}

// cyclesAgentPane attaches addr with the agent left to auto and sets,
// wants it recognized as agent, and waits for a full cycle of that
// agent's: the update prompt naming memory (the agent's, or one sets
// give), fresh (its new conversation), /init and the kickstart, each
// submitted as a prompt of its own, none while the session worked, with
// the agent's hooks seen.
func (r *rig) cyclesAgentPane(addr, log, agent, memory, fresh string, sets ...string) {
	r.t.Helper()
	t := r.t
	st, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr, Sets: sets})
	if err != nil || st.Agent != agent {
		t.Fatalf("attach: agent %q, %v; want it recognized as %s", st.Agent, err, agent)
	}
	info, err := agents.Lookup(agent)
	if err != nil {
		t.Fatal(err)
	}
	update := info.UpdatePrompt
	for _, s := range sets {
		if v, ok := strings.CutPrefix(s, "update_prompt="); ok {
			update = v
		}
	}
	if !strings.Contains(update, memory) {
		t.Fatalf("the update prompt %q does not name %s", update, memory)
	}
	want := []string{update, fresh, "/init", "go on with the next task"}
	r.waitFor("a full "+info.Label+" cycle", 60*time.Second, func() bool { return hasPrefix(submits(t, log), want) })
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
		t.Fatalf("status = cycles %d, hooks active %t; want a cycle with %s's hooks seen", status.Status.Cycles, status.HooksActive, info.Label)
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

// A person quits Codex and starts Claude Code in the same pane: a pane
// whose agent was recognized gets a controller that reads the new CLI, as
// it was enabled (here paused), and the new CLI is cycled the Claude way
// once resumed.
func TestDaemon_AgentFollowsTheCLI(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The CLIs' program names, which the pane's current command shows.
	bin := t.TempDir()
	for _, name := range []string{"codex", "claude"} {
		if err := os.Symlink(exe, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	codexLog, claudeLog := filepath.Join(dir, "codex.jsonl"), filepath.Join(dir, "claude.jsonl")
	sim := func(name, log string, look ...string) string {
		args := slices.Concat([]string{"env", "CODEMAN_TEST_ROLE=sim", filepath.Join(bin, name)}, r.simArgs(log, "hello there", look...))
		for i, a := range args {
			args[i] = clitest.ShellQuote(a)
		}
		return strings.Join(args, " ")
	}
	// Job control gives each CLI the terminal, so tmux names it.
	script := "set -m; " + sim("codex", codexLog, "--look", simclaude.LookCodex) + "; " + sim("claude", claudeLog)
	pane := r.tmux.NewSession("switch", "sh", "-c", script)
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "› ") }, "Codex's composer", 10*time.Second)
	addr := "tmux:" + r.tmux.Socket() + ":" + pane

	ctx := context.Background()
	st, err := r.client.Attach(ctx, api.AttachRequest{Pane: addr, Paused: true})
	if err != nil || st.Agent != codex.Name {
		t.Fatalf("attach: agent %q, %v; want codex, by its program", st.Agent, err)
	}
	r.tmux.Tmux("send-keys", "-t", pane, "-l", "/exit")
	time.Sleep(300 * time.Millisecond) // past Codex's paste window, so Enter submits
	r.tmux.Tmux("send-keys", "-t", pane, "Enter")
	r.waitFor("the controller to read Claude Code", 20*time.Second, func() bool {
		st, err := r.client.Pane(ctx, addr, 0)
		return err == nil && st.Agent == "claude"
	})
	st, err = r.client.Pane(ctx, addr, 0)
	if err != nil || !st.Status.Paused {
		t.Fatalf("after the switch: %+v, %v; want the pane still paused", st.Status, err)
	}
	if _, err := r.client.Pause(ctx, addr, false); err != nil {
		t.Fatal(err)
	}
	r.waitFor("Claude Code's update prompt", 30*time.Second, func() bool {
		got := submits(t, claudeLog)
		return len(got) > 0 && strings.Contains(got[0], "CLAUDE.md")
	})
	if got := submits(t, codexLog); len(got) != 0 {
		t.Errorf("the paused Codex session received %q", got)
	}
}
