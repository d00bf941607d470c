package daemon

import (
	"context"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/api"
)

// A pane's agent is recognized when it is attached, set outright by the
// config, and cannot be changed under a running controller: the pane's
// controller would read one CLI's screen with another's table.
func TestDaemon_PaneAgent(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	claudePane, _ := r.session("claude", "hello there")
	st, err := r.client.Attach(ctx, api.AttachRequest{Pane: claudePane})
	if err != nil || st.Agent != "claude" {
		t.Fatalf("attach of a Claude Code pane: agent %q, %v; want it recognized as claude", st.Agent, err)
	}

	// A shell shows neither agent: set outright, the config wins.
	shell := r.tmux.NewSession("shell", "sh")
	shellAddr := "tmux:" + r.tmux.Socket() + ":" + shell
	st, err = r.client.Attach(ctx, api.AttachRequest{Pane: shellAddr, Sets: []string{"agent=codex"}})
	if err != nil || st.Agent != "codex" {
		t.Fatalf("attach --set agent=codex: agent %q, %v", st.Agent, err)
	}
	_, err = r.client.Attach(ctx, api.AttachRequest{Pane: shellAddr, Sets: []string{"agent=claude"}})
	if err == nil || !strings.Contains(err.Error(), "detach it first") {
		t.Fatalf("changing a controlled pane's agent: %v, want a refusal that says to detach", err)
	}
	// A reconfigure that names no agent keeps the pane's.
	st, err = r.client.Attach(ctx, api.AttachRequest{Pane: shellAddr, Sets: []string{"completion_confirm=3s"}})
	if err != nil || st.Agent != "codex" {
		t.Fatalf("reconfigure: agent %q, %v; want codex kept", st.Agent, err)
	}
	if _, err := r.client.Attach(ctx, api.AttachRequest{Pane: shellAddr, Sets: []string{"agent=gemini"}}); err == nil || !strings.Contains(err.Error(), `"gemini"`) {
		t.Fatalf("attach --set agent=gemini: %v, want an error naming the value", err)
	}

	// Detached and attached again without a word: nothing recognizes a
	// shell, and the default stands.
	if err := r.client.Detach(ctx, shellAddr); err != nil {
		t.Fatal(err)
	}
	st, err = r.client.Attach(ctx, api.AttachRequest{Pane: shellAddr})
	if err != nil || st.Agent != "claude" {
		t.Fatalf("attach of a shell: agent %q, %v; want the default, claude", st.Agent, err)
	}
}
