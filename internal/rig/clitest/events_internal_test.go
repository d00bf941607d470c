package clitest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The recorder logs a hook's payload from stdin and a notify run's from
// its last argument, each one line of compact JSON however it arrived, and
// names a hook by its argument when the payload does not.
func TestEventRecorder(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("sh not found in PATH")
	}
	dir := t.TempDir()
	script, logDir := filepath.Join(dir, "record's.sh"), filepath.Join(dir, "log dir")
	if err := writeRecorder(script, logDir); err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	hook := exec.Command(sh, "-c", ShellQuote(script)+" hook")
	hook.Stdin = strings.NewReader("{\n  \"hook_event_name\": \"UserPromptSubmit\",\n  \"prompt\": \"two\\nlines\"\n}\n")
	if out, err := hook.CombinedOutput(); err != nil {
		t.Fatalf("hook command: %v: %s", err, out)
	}
	// Codex runs notify with the JSON after the program's own arguments.
	notify := exec.Command(script, "notify", "{\n\"type\": \"agent-turn-complete\", \"thread-id\": \"t1\"}")
	if out, err := notify.CombinedOutput(); err != nil {
		t.Fatalf("notify command: %v: %s", err, out)
	}
	// Copilot's camelCase payloads carry no event name.
	named := exec.Command(sh, "-c", ShellQuote(script)+" hook agentStop")
	named.Stdin = strings.NewReader(`{"sessionId":"s1","stopReason":"end_turn"}`)
	if out, err := named.CombinedOutput(); err != nil {
		t.Fatalf("named hook command: %v: %s", err, out)
	}
	events, err := readEventLog(logDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 3 {
		t.Fatalf("events %+v, want two hooks and a notify run", events)
	}
	h, n, a := events[0], events[1], events[2]
	if a.Kind != "hook" || a.Name != "agentStop" || a.Field("stopReason") != "end_turn" {
		t.Errorf("named hook event %+v", a)
	}
	if h.Kind != "hook" || h.Name != "UserPromptSubmit" || h.Field("prompt") != "two\nlines" || h.At.Before(before.Truncate(time.Second)) {
		t.Errorf("hook event %+v", h)
	}
	if got := string(h.Payload); got != `{"hook_event_name":"UserPromptSubmit","prompt":"two\nlines"}` {
		t.Errorf("hook payload %s", got)
	}
	if n.Kind != "notify" || n.Name != "agent-turn-complete" || n.Field("thread-id") != "t1" {
		t.Errorf("notify event %+v", n)
	}
	if !Hook("UserPromptSubmit", time.Time{})(h) || Hook("UserPromptSubmit", time.Time{})(n) ||
		!Notify("agent-turn-complete", before.Add(-time.Second))(n) || Notify("agent-turn-complete", time.Now())(n) {
		t.Error("Hook and Notify predicates disagree with the events")
	}
}
