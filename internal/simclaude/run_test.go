package simclaude_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

const (
	idleFooter = "  ⏸ manual mode on · ? for shortcuts"
	busyFooter = "  ⏸ manual mode on · esc to interrupt"
	inputEmpty = "❯\u00a0"
)

var (
	spinnerRow    = regexp.MustCompile(`^[·✢*✶✻✽] [A-Z][a-z]+… \(\d+s · ↓ \d+ tokens\)$`)
	completionRow = regexp.MustCompile(`^✻ (Baked|Brewed|Churned|Cogitated|Cooked|Crunched|Sautéed|Worked) for \d+s · done \d{1,2}:\d\d [AP]M$`)
)

func countMatches(rows []string, re *regexp.Regexp) int {
	n := 0
	for _, r := range rows {
		if re.MatchString(r) {
			n++
		}
	}
	return n
}

// hookEvents reads the file the hook command appended payloads to, as
// "Event" or "Event:detail", checking that each line is one JSON payload.
func hookEvents(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var p map[string]any
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("hook payload %d is not JSON: %v\n%s", i+1, err, line)
		}
		if p["session_id"] == nil || p["transcript_path"] == nil || p["cwd"] == nil {
			t.Errorf("hook payload %d lacks the common fields: %s", i+1, line)
		}
		e := p["hook_event_name"].(string)
		for _, k := range []string{"tool_name", "notification_type", "source", "reason", "error"} {
			if v, ok := p[k].(string); ok {
				e += ":" + v
				break
			}
		}
		out = append(out, e)
	}
	return out
}

func waitHook(t *testing.T, path, want string) {
	t.Helper()
	err := wait.Until("hook "+want, waitTimeout, func() bool { return slices.Contains(hookEvents(t, path), want) })
	if err != nil {
		t.Fatalf("%v; got %v", err, hookEvents(t, path))
	}
}

func describeLog(entries []simclaude.LogEntry) []string {
	var out []string
	for _, e := range entries {
		s := fmt.Sprintf("%s %q busy=%t", e.Kind, e.Text, e.Busy)
		if e.Key != "" {
			s = fmt.Sprintf("%s key=%s busy=%t", e.Kind, e.Key, e.Busy)
		}
		if e.Dialog != "" {
			s += " dialog=" + e.Dialog
		}
		if e.Outcome != "" {
			s += " outcome=" + e.Outcome
		}
		out = append(out, s)
	}
	return out
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %s\nwant %s", what, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestRun_Session drives one session through a pty: typing, Enter as a
// separate write, a bracketed paste, the plan dialog and Ctrl-C twice, and
// checks the screen, the log and the hooks.
func TestRun_Session(t *testing.T) {
	dir := t.TempDir()
	logPath, hookPath := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "hooks.jsonl")
	p := startPTY(t, 120, 40,
		"--work", "800ms", "--seed", "3", "--idle-notify", "1h", "--permission-notify", "200ms",
		"--log", logPath, "--hook-cmd", "cat >> "+hookPath)
	p.waitRow(idleFooter)
	p.waitRow(inputEmpty)

	p.send("hello")
	p.waitRow(inputEmpty + "hello")
	p.send("\r")
	p.waitFor("spinner and busy footer", func(rows []string) bool {
		return countMatches(rows, spinnerRow) == 1 && hasRow(rows, busyFooter)
	})
	p.waitFor("completion line", func(rows []string) bool { return countMatches(rows, completionRow) == 1 })
	p.waitRow(idleFooter)

	p.send("\x1b[200~line one\nline two\x1b[201~")
	p.waitRow("  line two")
	p.send("\r")
	p.waitFor("second completion line", func(rows []string) bool { return countMatches(rows, completionRow) == 2 })
	if !hasRow(p.rows(), "❯ line one") {
		t.Errorf("pasted prompt not echoed:\n%s", strings.Join(p.rows(), "\n"))
	}

	p.send("plan please\r")
	p.waitRow("   ❯ 1. Yes, and use auto mode")
	waitHook(t, hookPath, "Notification:permission_prompt")
	p.send("\r")
	p.waitRow("  I created hello.txt, ran the tests and committed the change.")
	p.waitRow("  ⏵⏵ auto mode on (shift+tab to cycle)") // idle again, in the mode option 1 chose

	p.send("\x03")
	p.waitRow("  Press Ctrl-C again to exit")
	p.send("\x03")
	if code := p.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if rows := p.rows(); rows[0] != "Resume this session with:" || !strings.HasPrefix(rows[1], "claude --resume ") {
		t.Errorf("after exit:\n%s", strings.Join(rows, "\n"))
	}

	entries, err := simclaude.ReadLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, "log", describeLog(entries), []string{
		`key "hello" busy=false`,
		`submit "hello" busy=false`,
		`turn_start "hello" busy=false`,
		`turn_end "hello" busy=true outcome=done`,
		`paste "line one\nline two" busy=false`,
		`submit "line one\nline two" busy=false`,
		`turn_start "line one\nline two" busy=false`,
		`turn_end "line one\nline two" busy=true outcome=done`,
		`key "plan please" busy=false`,
		`submit "plan please" busy=false`,
		`turn_start "plan please" busy=false`,
		`key key=enter busy=false dialog=plan`,
		`turn_end "plan please" busy=true outcome=done`,
		`key key=ctrl+c busy=false`,
		`key key=ctrl+c busy=false`,
	})
	sameList(t, "hooks", hookEvents(t, hookPath), []string{
		"SessionStart:startup",
		"UserPromptSubmit", "PreToolUse:Bash", "PostToolUse:Bash", "PostToolBatch", "Stop",
		"UserPromptSubmit", "PreToolUse:Bash", "PostToolUse:Bash", "PostToolBatch", "Stop",
		"UserPromptSubmit", "PreToolUse:ExitPlanMode", "PermissionRequest:ExitPlanMode",
		"Notification:permission_prompt", "PostToolUse:ExitPlanMode", "PostToolBatch", "Stop",
		"SessionEnd:prompt_input_exit",
	})
}

// TestRun_QueueAndInterrupt checks a prompt sent while busy, Escape while
// busy, and the --prompt flag.
func TestRun_QueueAndInterrupt(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	p := startPTY(t, 100, 30, "--work", "500ms", "--long", "1m", "--prompt", "a long task", "--log", logPath)
	p.waitRow("❯ a long task")
	p.waitRow(busyFooter)
	p.send("follow up")
	p.send("\r")
	p.waitRow(inputEmpty + "Press up to edit queued messages")
	p.waitRow("  ⎿  Queued · ctrl+x ctrl+s to send now")
	p.send("\x1b")
	p.waitRow("  ⎿ \u00a0Interrupted · What should Claude do instead?")
	p.waitRow("❯ follow up")
	p.waitFor("completion of the queued prompt", func(rows []string) bool { return countMatches(rows, completionRow) == 1 })

	entries, err := simclaude.ReadLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, "log", describeLog(entries), []string{
		`turn_start "a long task" busy=false`,
		`key "follow up" busy=true`,
		`queued "follow up" busy=true`,
		`key key=escape busy=true`,
		`turn_end "a long task" busy=true outcome=interrupted`,
		`turn_start "follow up" busy=false`,
		`turn_end "follow up" busy=true outcome=done`,
	})
}

// TestRun_Resize redraws the whole screen at the new size on SIGWINCH.
func TestRun_Resize(t *testing.T) {
	p := startPTY(t, 100, 30)
	p.waitRow(idleFooter)
	p.resize(70, 20)
	p.waitFor("footer on the last row of 70x20", func(rows []string) bool {
		return len(rows) == 20 && rows[19] == idleFooter && rows[16] == strings.Repeat("─", 70)
	})
}
