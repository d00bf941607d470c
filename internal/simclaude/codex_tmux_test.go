package simclaude_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// TestRun_CodexTmux runs the Codex look in a tmux pane: text and Enter in
// one burst make a newline, Enter after a pause submits; the pane title
// spins while the turn works, and the OSC 7501 notices reach the pane's
// output.
func TestRun_CodexTmux(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	dir := t.TempDir()
	logPath, outPath := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "out")
	pane := srv.NewSession("sim", "env", runMainEnv+"=1", os.Args[0], "--look", "codex", "--work", "1s", "--log", logPath, "--cwd", filepath.Join(dir, "proj"))
	srv.Tmux("pipe-pane", "-t", pane, "-O", "cat >> "+outPath)
	waitRow := func(what string, cond func(rows []string) bool) {
		t.Helper()
		srv.WaitFor(pane, func(screen string) bool { return cond(paneRows(screen)) }, what, waitTimeout)
	}
	waitRow("the composer", func(rows []string) bool { return hasRow(rows, "› Ask Codex to do anything") })

	// One tmux command: the Enter comes with the burst, a newline.
	srv.Tmux("send-keys", "-t", pane, "-l", "hello", ";", "send-keys", "-t", pane, "Enter")
	waitRow("the draft", func(rows []string) bool { return hasRow(rows, "› hello") })
	time.Sleep(250 * time.Millisecond) // past Codex's paste window, as codeman waits
	srv.Tmux("send-keys", "-t", pane, "Enter")
	if err := wait.Until("a spinning title", waitTimeout, func() bool {
		title := strings.TrimSpace(srv.Tmux("display", "-p", "-t", pane, "#{pane_title}"))
		spinner, rest, _ := strings.Cut(title, " ")
		return strings.Contains("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", spinner) && spinner != "" && rest == "Fake task | proj"
	}); err != nil {
		t.Fatal(err)
	}
	waitRow("the turn's end", func(rows []string) bool { return findPrefix(rows, "  Worked for ") })
	if err := wait.Until("the done notice", waitTimeout, func() bool {
		b, _ := os.ReadFile(outPath)
		return strings.Contains(string(b), "\x1b]7501;state=done:app=codex\x1b\\")
	}); err != nil {
		t.Fatal(err)
	}

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
	sameList(t, "enters", got, []string{`key \n`, "submit hello"})
}

func findPrefix(rows []string, prefix string) bool {
	for _, r := range rows {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}
