package simclaude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// opencodeIdleRow is the start of the state row of an idle session.
const opencodeIdleRow = "   "

// TestRun_OpenCodeTmux runs the OpenCode look in a tmux pane: text and its
// CR in one tmux command submit; the program runs as opencode; each event
// runs the hook command with its name as the argument and
// {"type", "properties"}, without a newline, on stdin; /new typed whole
// runs at the first Enter.
func TestRun_OpenCodeTmux(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	dir := t.TempDir()
	logPath, hooksPath := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "hooks")
	hookCmd := `sh -c 'printf "%s " "$1" >> ` + hooksPath + `; cat >> ` + hooksPath + `; echo >> ` + hooksPath + `' hook`
	pane := srv.NewSession("sim", "env", runMainEnv+"=1", os.Args[0], "--look", simclaude.LookOpenCode, "--work", "1s",
		"--log", logPath, "--hook-cmd", hookCmd, "--cwd", dir)
	waitRow := func(what string, cond func(rows []string) bool) {
		t.Helper()
		srv.WaitFor(pane, func(screen string) bool { return cond(paneRows(screen)) }, what, waitTimeout)
	}
	waitRow("the start screen", func(rows []string) bool {
		return len(rows) == 50 && strings.Contains(rows[25], `┃  Ask anything… "`) && strings.HasSuffix(rows[48], "1.18.33")
	})
	if got := strings.TrimSpace(srv.Tmux("display", "-p", "-t", pane, "#{pane_current_command}")); got != "opencode" {
		t.Errorf("the pane runs %q, want opencode", got)
	}

	srv.Tmux("send-keys", "-t", pane, "-l", "typed with its enter in one write\r")
	waitRow("the working bar", func(rows []string) bool { return strings.Contains(rows[48], "  esc interrupt") })
	waitRow("the turn's footer with its time", func(rows []string) bool {
		return strings.HasPrefix(rows[48], opencodeIdleRow+dir) && hasPrefixRow(rows, "     ▣  Build · Claude Sonnet 4.5 (latest) · ")
	})

	var events []string
	if err := wait.Until("session.idle", waitTimeout, func() bool {
		b, _ := os.ReadFile(hooksPath)
		events = nil
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			event, payload, _ := strings.Cut(l, " ")
			var p struct {
				Type       string
				Properties map[string]any
			}
			if json.Unmarshal([]byte(payload), &p) != nil || p.Type != event || p.Properties["sessionID"] == nil {
				t.Fatalf("hook line %q: no payload of its event", l)
			}
			events = append(events, event)
		}
		return len(events) > 0 && events[len(events)-1] == "session.idle"
	}); err != nil {
		t.Fatal(err)
	}
	sameList(t, "events", events, []string{"chat.message", "session.status", "session.idle"})

	// /new typed whole runs at the first Enter, its popup open or not.
	srv.Tmux("send-keys", "-t", pane, "-l", "/new")
	waitRow("the popup", func(rows []string) bool { return hasPrefixRow(rows, "  ┃ /new ") })
	srv.Tmux("send-keys", "-t", pane, "Enter")
	waitRow("the start screen again", func(rows []string) bool { return hasPrefixRow(rows, strings.Repeat(" ", 72)+"● Tip") })

	entries, err := simclaude.ReadLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.Kind == simclaude.LogSubmit {
			got = append(got, e.Text)
		}
	}
	sameList(t, "submits", got, []string{"typed with its enter in one write", "/new"})
}

func hasPrefixRow(rows []string, prefix string) bool {
	for _, r := range rows {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}

// TestRun_OpenCodePTY runs the OpenCode look on a pty: under --permission
// ask the prompt replaces the composer until Enter allows the command;
// Ctrl+C on the empty composer exits, printing the session to continue.
func TestRun_OpenCodePTY(t *testing.T) {
	p := startPTY(t, 200, 50, "--look", simclaude.LookOpenCode, "--work", "600ms", "--permission", simclaude.PermissionAsk, "--cwd", "/tmp/proj")
	p.waitFor("the start screen", func(rows []string) bool { return strings.HasSuffix(rows[48], "1.18.33") })
	p.send("run it, permission needed")
	p.send("\r")
	p.waitRow("  ┃  △ Permission required")
	p.send("\r")
	p.waitFor("the command's output", func(rows []string) bool { return hasRow(rows, "  ┃  slow done") })
	p.waitFor("the idle state row", func(rows []string) bool { return strings.HasPrefix(rows[48], opencodeIdleRow+"/tmp/proj") })
	p.send("\x03")
	if code := p.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if !hasPrefixRow(p.rows(), "  Continue  opencode -s ses_") {
		t.Errorf("no session to continue:\n%s", strings.Join(p.rows(), "\n"))
	}
}
