package simclaude_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// paneRows splits a captured screen into rows, trailing blanks removed.
func paneRows(screen string) []string {
	rows := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return rows
}

// TestRun_Tmux runs the program in a tmux pane and drives it the way
// codeman does: send-keys -l, Enter as its own command, paste-buffer -p for
// multi-line text.
func TestRun_Tmux(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	pane := srv.NewSession("sim", "env", runMainEnv+"=1", os.Args[0], "--work", "600ms", "--long", "1m", "--log", logPath)
	waitFor := func(what string, cond func(rows []string) bool) {
		t.Helper()
		srv.WaitFor(pane, func(screen string) bool { return cond(paneRows(screen)) }, what, waitTimeout)
	}
	waitRow := func(want string) {
		t.Helper()
		waitFor(fmt.Sprintf("row %q", want), func(rows []string) bool { return hasRow(rows, want) })
	}
	waitFor("the idle prompt box", func(rows []string) bool {
		return len(rows) == 50 && rows[47] == inputEmpty && rows[49] == idleFooter
	})

	srv.Tmux("send-keys", "-t", pane, "-l", "hello")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	waitRow(busyFooter)
	waitFor("completion line", func(rows []string) bool { return countMatches(rows, completionRow) == 1 })

	srv.Tmux("set-buffer", "-b", "p", "first line\nsecond line")
	srv.Tmux("paste-buffer", "-p", "-d", "-b", "p", "-t", pane)
	waitRow("  second line")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	waitFor("second completion line", func(rows []string) bool { return countMatches(rows, completionRow) == 2 })

	srv.Tmux("send-keys", "-t", pane, "-l", "long")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	waitFor("spinner", func(rows []string) bool { return countMatches(rows, spinnerRow) == 1 })
	srv.Tmux("send-keys", "-t", pane, "Escape")
	waitRow("  ⎿ \u00a0Interrupted · What should Claude do instead?")
	waitRow(idleFooter)

	entries, err := simclaude.ReadLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var submits []string
	for _, e := range entries {
		if e.Kind == simclaude.LogSubmit || e.Kind == simclaude.LogQueued {
			submits = append(submits, fmt.Sprintf("%s %q busy=%t", e.Kind, e.Text, e.Busy))
		}
	}
	sameList(t, "submits", submits, []string{
		`submit "hello" busy=false`,
		`submit "first line\nsecond line" busy=false`,
		`submit "long" busy=false`,
	})
}
