package simclaude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// TestRun_CopilotTmux runs the Copilot look in a tmux pane: a pasted text
// and its Enter in one tmux command are a paste and submit nothing, an
// Enter of its own submits; the program runs as copilot, the title names
// the first prompt, and each hook runs with its event's name as the
// argument and its payload, without a newline, on stdin.
func TestRun_CopilotTmux(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	dir := t.TempDir()
	logPath, hooksPath := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "hooks")
	hookCmd := `sh -c 'printf "%s " "$1" >> ` + hooksPath + `; cat >> ` + hooksPath + `; echo >> ` + hooksPath + `' hook`
	pane := srv.NewSession("sim", "env", runMainEnv+"=1", os.Args[0], "--look", simclaude.LookCopilot, "--work", "1s",
		"--log", logPath, "--hook-cmd", hookCmd, "--cwd", dir)
	waitRow := func(what string, cond func(rows []string) bool) {
		t.Helper()
		srv.WaitFor(pane, func(screen string) bool { return cond(paneRows(screen)) }, what, waitTimeout)
	}
	waitRow("the idle state row", func(rows []string) bool {
		return len(rows) == 50 && rows[47] == "❯" && strings.HasPrefix(rows[49], " ← open sidebar · Interactive · Manual Approval")
	})
	if got := strings.TrimSpace(srv.Tmux("display", "-p", "-t", pane, "#{pane_current_command}")); got != "copilot" {
		t.Errorf("the pane runs %q, want copilot", got)
	}

	pasted := "a prompt of more than thirty-two characters"
	srv.Tmux("send-keys", "-t", pane, "-l", pasted, ";", "send-keys", "-t", pane, "Enter")
	waitRow("the text in the box", func(rows []string) bool { return hasRow(rows, "❯ "+pasted) })
	time.Sleep(100 * time.Millisecond) // a read of its own, as codeman sends it
	srv.Tmux("send-keys", "-t", pane, "Enter")
	waitRow("the working row", func(rows []string) bool { return strings.Contains(rows[49], "Working") })
	waitRow("the idle row again", func(rows []string) bool { return strings.HasPrefix(rows[49], " ← open sidebar") })
	if got := strings.TrimSpace(srv.Tmux("display", "-p", "-t", pane, "#{pane_title}")); got != pasted+" - GitHub Copilot" {
		t.Errorf("title %q", got)
	}

	var events []string
	if err := wait.Until("agentStop", waitTimeout, func() bool {
		b, _ := os.ReadFile(hooksPath)
		events = nil
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			event, payload, _ := strings.Cut(l, " ")
			var p map[string]any
			if json.Unmarshal([]byte(payload), &p) != nil || p["sessionId"] == nil || p["cwd"] != dir {
				t.Fatalf("hook line %q: no payload with the common fields", l)
			}
			events = append(events, event)
		}
		return len(events) > 0 && events[len(events)-1] == "agentStop"
	}); err != nil {
		t.Fatal(err)
	}
	sameList(t, "hooks", events, []string{"sessionStart", "userPromptSubmitted", "userPromptTransformed", "agentStop"})

	entries, err := simclaude.ReadLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.Kind == simclaude.LogSubmit || e.Key == "enter" {
			got = append(got, e.Kind+" "+strings.ReplaceAll(e.Text, "\n", `\n`))
		}
	}
	sameList(t, "enters", got, []string{`key \n`, "submit " + pasted})
}
