package claudetest_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
)

var record = flag.Bool("record", false, "re-record agents/claude/testdata/replay/*.cast with the real Claude Code CLI")

// replayDir is where the recordings go: agents/claude's replay fixtures; the
// screens a scenario captures go to screenDir.
var (
	replayDir = filepath.Join("..", "..", "..", "agents", "claude", "testdata", "replay")
	screenDir = filepath.Join("..", "..", "..", "agents", "claude", "testdata", "screens")
)

// unversioned is the version whose recordings carry no version in their
// names: they were made before a second version was recorded beside them.
const unversioned = "2.1.328"

// castName is the file name of a scenario's recording made with version:
// "question.cast" for 2.1.328, "question-2.1.332.cast" for any other, so
// that the recordings of every tested version stay side by side.
func castName(scenario, version string) string {
	if version == unversioned {
		return scenario + ".cast"
	}
	return scenario + "-" + version + ".cast"
}

// scenario is one recording: what to script and type, what to wait for.
type scenario struct {
	name string
	opts claudetest.Options
	run  func(t *testing.T, r *recording)
}

// TestRecordReplayFixtures re-records the replay fixtures from the real
// CLI. It only runs when asked (-record or CODEMAN_RECORD=1), one session
// at a time; -run TestRecordReplayFixtures/question re-records one.
func TestRecordReplayFixtures(t *testing.T) {
	if !*record && os.Getenv("CODEMAN_RECORD") != "1" {
		t.Skip("re-records agents/claude/testdata/replay/*.cast; run with -record or CODEMAN_RECORD=1")
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			opts := sc.opts
			opts.Record, opts.RecordHooks = true, true
			s := claudetest.NewSession(t, opts)
			r := &recording{t: t, s: s, start: s.RecordStart(), version: s.Version()}
			r.mark("idle prompt box drawn (Claude Code " + r.version + ")")
			sc.run(t, r)
			path := filepath.Join(replayDir, castName(sc.name, r.version))
			r.s.SaveCast(path)
			for _, req := range r.s.API().Requests() {
				r.log = append(r.log, fmt.Sprintf("%s\tAPI %s status=%d retry=%t tool_result=%t %q",
					req.At.Sub(r.start).Truncate(100*time.Millisecond), req.Path, req.Status, req.Retry, req.ToolResult, req.LastUserText))
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)\n%s", path, fi.Size(), strings.Join(r.log, "\n"))
		})
	}
}

// recording drives one session and notes when each step happened, for the
// fixtures' README.
type recording struct {
	t       *testing.T
	s       *claudetest.Session
	start   time.Time
	version string // of the CLI
	log     []string
}

// screen writes the pane's screen into agents/claude's screen fixtures as
// v<version>-<situation>.txt (capture-pane -p) and .ansi (with -e).
func (r *recording) screen(situation string) {
	r.t.Helper()
	base := filepath.Join(screenDir, "v"+r.version+"-"+situation)
	for ext, text := range map[string]string{".txt": r.s.Capture(), ".ansi": r.s.CaptureANSI()} {
		if err := os.WriteFile(base+ext, []byte(strings.TrimRight(text, "\n")+"\n"), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.mark("screen " + filepath.Base(base))
}

func (r *recording) mark(what string) {
	r.log = append(r.log, (time.Since(r.start).Truncate(100*time.Millisecond)).String()+"\t"+what)
}

// hold leaves the pane alone for d: a recording needs real seconds of an
// unchanging state (idle, a dialog left open), which no condition marks.
func (r *recording) hold(d time.Duration, what string) {
	r.mark("hold " + d.String() + ": " + what)
	time.Sleep(d)
	r.s.WaitFor(func(string) bool { return true }, "the pane to still be there", time.Second)
}

func (r *recording) typeText(text string) {
	r.s.Type(text)
	r.mark("typed " + text + " + Enter")
}

func (r *recording) waitFor(pred func(string) bool, what string, timeout time.Duration) {
	r.s.WaitFor(pred, what, timeout)
	r.mark(what)
}

var bashEchoLs = &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{
	"command": "echo hi && ls", "description": "Greet and list files",
}}

var scenarios = []scenario{
	// Claude's idle_prompt notification comes 60 s after Stop by default;
	// 10 s puts it inside the recording's idle tail.
	{name: "turn-ends", run: recordTurnEnds, opts: claudetest.Options{
		ClaudeJSON: map[string]any{"messageIdleNotifThresholdMs": 10000},
		Files:      map[string]string{"README.md": "# demo\n"},
	}},
	{name: "long-work", run: recordLongWork},
	{name: "plan-approval", run: recordPlanApproval},
	{name: "question", run: recordQuestion},
	{name: "permission", run: recordPermission},
	{name: "api-error", run: recordAPIError},
	{name: "background-agent", run: recordBackgroundAgent},
	{name: "usage-limit", run: recordUsageLimit, opts: claudetest.Options{OAuth: true}},
	{name: "usage-limit-esc", run: recordUsageLimitEsc, opts: claudetest.Options{OAuth: true}},
	{name: "usage-limit-continue", run: recordUsageLimitContinue, opts: claudetest.Options{OAuth: true}},
	{name: "usage-limit-menu", run: recordUsageLimitMenu, opts: claudetest.Options{OAuth: true,
		Settings: map[string]any{"autoContinueAtUsageLimit": false}}},
	{name: "weekly-limit", run: recordWeeklyLimit, opts: claudetest.Options{OAuth: true}},
	{name: "monitor", run: recordMonitor},
	{name: "vim", run: recordVim, opts: claudetest.Options{ClaudeJSON: map[string]any{"editorMode": "vim"}}},
}

// recordTurnEnds: a reply that streams for ~10 s, a read-only Bash call
// that runs without a prompt, the completion line, then idle.
func recordTurnEnds(t *testing.T, r *recording) {
	r.s.API().Handle("list the project files", fakeapi.Reply{
		Chunks: []fakeapi.Chunk{
			{Text: "I'll take a look at the project first.\n\n"},
			{Pause: 2 * time.Second, Text: "It looks like a small project"},
			{Pause: 2 * time.Second, Text: " with only a few files so far.\n\n"},
			{Pause: 2 * time.Second, Text: "Let me list them"},
			{Pause: 2 * time.Second, Text: " to be sure"},
			{Pause: 2 * time.Second, Text: " before I answer."},
		},
		Tool: bashEchoLs,
		Next: &fakeapi.Reply{Chunks: []fakeapi.Chunk{
			{Pause: 500 * time.Millisecond, Text: "The project has a single `README.md`"},
			{Pause: time.Second, Text: " and nothing else yet."},
		}},
	})
	r.hold(3*time.Second, "idle before the prompt")
	r.typeText("list the project files")
	r.waitFor(clitest.Contains("Listed 1 directory"), "Bash ran (shown as Listed 1 directory)", 30*time.Second)
	r.waitFor(claudetest.Completions(1), "completion line", 30*time.Second)
	r.hold(15*time.Second, "idle after the turn")
}

// recordLongWork: the spinner runs ~30 s before the reply comes.
func recordLongWork(t *testing.T, r *recording) {
	r.s.API().Handle("refactor the parser", fakeapi.Reply{
		Delay: 30 * time.Second,
		Chunks: []fakeapi.Chunk{
			{Text: "I refactored the parser into three smaller functions.\n\n"},
			{Pause: time.Second, Text: "The tests still pass."},
		},
	})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("refactor the parser")
	r.waitFor(claudetest.Completions(1), "completion line", 60*time.Second)
	r.hold(5*time.Second, "idle after the turn")
}

// planText is the plan the fake writes into the plan file.
const planText = "# Plan: add hello.txt\n\n## Steps\n1. Create `hello.txt` with a greeting\n2. Run the tests\n3. Commit the change\n"

// recordPlanApproval: plan mode, a plan written to the plan file, and
// ExitPlanMode's approval menu left open.
func recordPlanApproval(t *testing.T, r *recording) {
	r.s.API().HandlePlan("plan the greeting feature", planText, nil)
	r.hold(2*time.Second, "idle before plan mode")
	r.s.SendKeys("BTab")
	r.waitFor(clitest.Contains("accept edits on"), "accept edits mode (BTab)", 5*time.Second)
	r.s.SendKeys("BTab")
	r.waitFor(clitest.Contains("plan mode on"), "plan mode (BTab)", 5*time.Second)
	r.hold(2*time.Second, "idle in plan mode")
	r.typeText("plan the greeting feature")
	r.waitFor(clitest.Contains("Would you like to proceed?"), "plan approval menu", 30*time.Second)
	r.hold(15*time.Second, "approval menu left open")
}

// recordQuestion: an AskUserQuestion picker left open.
func recordQuestion(t *testing.T, r *recording) {
	r.s.API().Handle("set up storage", fakeapi.Reply{
		Text: "I need one decision first.",
		Tool: &fakeapi.ToolCall{Name: "AskUserQuestion", Input: map[string]any{
			"questions": []any{map[string]any{
				"question":    "Which database should the project use?",
				"header":      "Database",
				"multiSelect": false,
				"options": []any{
					map[string]any{"label": "PostgreSQL", "description": "Relational, strong consistency"},
					map[string]any{"label": "SQLite", "description": "Embedded, zero setup"},
					map[string]any{"label": "Redis", "description": "In-memory key-value store"},
				},
			}},
		}},
	})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("set up storage")
	r.waitFor(clitest.Contains("Enter to select"), "question picker", 30*time.Second)
	r.hold(20*time.Second, "picker left open")
}

// recordPermission: a Bash permission prompt left open.
func recordPermission(t *testing.T, r *recording) {
	r.s.API().Handle("clean the build", fakeapi.Reply{
		Text: "I'll remove the build output and check the local port.",
		Tool: &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{
			"command":     "rm -rf ./build-output-does-not-exist && curl -s http://127.0.0.1:9/ || true",
			"description": "Delete build output and probe a local port",
		}},
	})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("clean the build")
	r.waitFor(clitest.Contains("Do you want to proceed?"), "permission prompt", 30*time.Second)
	r.hold(20*time.Second, "prompt left open")
}

// recordAPIError: a 529 (and its one retry) ends the turn.
func recordAPIError(t *testing.T, r *recording) {
	r.s.API().Handle("deploy the service", fakeapi.Reply{Status: 529})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("deploy the service")
	r.waitFor(clitest.Contains("API Error: 529"), "API error line", 60*time.Second)
	r.waitFor(claudetest.PromptReady, "idle prompt after the error", 10*time.Second)
	r.hold(8*time.Second, "idle after the error")
}

// recordBackgroundAgent: an Agent call runs in the background, the turn
// ends waiting for it, and its report starts a follow-up turn.
func recordBackgroundAgent(t *testing.T, r *recording) {
	api := r.s.API()
	api.Handle("delegate the greeting", fakeapi.Reply{
		Text: "I'll hand this to a subagent.",
		Tool: &fakeapi.ToolCall{Name: "Agent", Input: map[string]any{
			"description":   "Say hi subtask",
			"prompt":        "Say hi from the subagent.",
			"subagent_type": "general-purpose",
		}},
		Next: &fakeapi.Reply{Text: "The subagent is on it."},
	})
	api.Handle("<task-notification>", fakeapi.Reply{Text: "The subagent said hi. All done."})
	api.Handle("Say hi from the subagent.", fakeapi.Reply{Delay: 8 * time.Second, Text: "hi from the subagent"})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("delegate the greeting")
	r.waitFor(clitest.Matches(claudetest.WaitingForAgents), "waiting for the background agent", 30*time.Second)
	r.waitFor(claudetest.Completions(1), "completion line of the follow-up turn", 60*time.Second)
	r.hold(5*time.Second, "idle after the follow-up turn")
}

// recordUsageLimit: under subscription auth a 429 with the unified rate
// limit headers is the 5-hour usage limit, with its automatic continue.
func recordUsageLimit(t *testing.T, r *recording) {
	r.s.API().Handle("keep going", fakeapi.Reply{Status: 429, UsageLimit: &fakeapi.UsageLimit{
		Claim: "five_hour", ResetAt: time.Now().Add(2 * time.Hour).Truncate(time.Minute),
	}})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.waitFor(clitest.Contains("Usage limit reached"), "usage limit lines", 30*time.Second)
	r.hold(10*time.Second, "limit shown, waiting to continue")
	r.screen("usage-limit-armed")
}

// recordUsageLimitEsc: the 5-hour limit, and Esc cancels Claude Code's
// own continue.
func recordUsageLimitEsc(t *testing.T, r *recording) {
	r.s.API().Handle("keep going", fakeapi.Reply{Status: 429, UsageLimit: &fakeapi.UsageLimit{
		Claim: "five_hour", ResetAt: time.Now().Add(2 * time.Hour).Truncate(time.Minute),
	}})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.waitFor(clitest.Contains("Continuing automatically at"), "usage limit lines, continue armed", 30*time.Second)
	r.hold(2*time.Second, "limit shown")
	r.s.SendKeys("Escape")
	r.waitFor(clitest.Contains("Automatic continue cancelled"), "continue cancelled (Esc)", 10*time.Second)
	r.hold(8*time.Second, "limit shown, nothing armed")
	r.screen("usage-limit-esc")
}

// limitResetSoon is a reset on a minute boundary (Claude Code prints
// minutes) at least 30 s ahead, so that a recording can wait it out.
func limitResetSoon() time.Time {
	return time.Now().Add(30 * time.Second).Truncate(time.Minute).Add(time.Minute)
}

// recordUsageLimitContinue: a 5-hour limit that resets within two minutes;
// Claude Code continues by itself 30 to 90 s after the reset, with a
// prompt of its own that the fake answers.
func recordUsageLimitContinue(t *testing.T, r *recording) {
	reset := limitResetSoon()
	r.s.API().LimitUntil(fakeapi.UsageLimit{Claim: "five_hour", ResetAt: reset})
	r.s.API().Handle(fakeapi.AutoContinueText, fakeapi.Reply{Text: "Picking up where I left off: the work is done."})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.waitFor(clitest.Contains("Continuing automatically at"), "usage limit lines, continue armed (reset "+reset.Format("15:04:05")+")", 30*time.Second)
	r.waitFor(clitest.Contains("Continuing shortly"), "the reset passed", time.Until(reset)+20*time.Second)
	r.screen("usage-limit-reset")
	r.waitFor(clitest.Contains("Usage limit reset · Continuing automatically"), "Claude Code continued by itself", 3*time.Minute)
	r.waitFor(claudetest.Completions(1), "completion line of its turn", 30*time.Second)
	r.hold(5*time.Second, "idle after the continued turn")
	r.screen("usage-limit-continued")
}

// recordUsageLimitMenu: with autoContinueAtUsageLimit off, the 5-hour
// limit opens the menu that asks what to do, left open.
func recordUsageLimitMenu(t *testing.T, r *recording) {
	r.s.API().Handle("keep going", fakeapi.Reply{Status: 429, UsageLimit: &fakeapi.UsageLimit{
		Claim: "five_hour", ResetAt: time.Now().Add(2 * time.Hour).Truncate(time.Minute),
	}})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.waitFor(clitest.Contains("What do you want to do?"), "the limit menu", 30*time.Second)
	r.hold(10*time.Second, "menu left open")
	r.screen("usage-limit-menu")
}

// recordWeeklyLimit: a weekly limit two days out opens the menu that asks
// what to do, left open.
func recordWeeklyLimit(t *testing.T, r *recording) {
	r.s.API().Handle("keep going", fakeapi.Reply{Status: 429, UsageLimit: &fakeapi.UsageLimit{
		Claim: "seven_day", ResetAt: time.Now().Add(50 * time.Hour).Truncate(time.Minute),
	}})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.waitFor(clitest.Contains("What do you want to do?"), "the limit menu", 30*time.Second)
	r.hold(10*time.Second, "menu left open")
	r.screen("weekly-limit-menu")
}

// recordMonitor: a Monitor and a background shell still run when the turn
// ends; the Stop hook lists both.
func recordMonitor(t *testing.T, r *recording) {
	r.s.API().Handle("watch the build", fakeapi.Reply{
		Text: "I'll watch the build log and start the server.",
		Tool: &fakeapi.ToolCall{Name: "Monitor", Input: map[string]any{
			"command": "sleep 600", "description": "Watch the build log", "persistent": true,
		}},
		Next: &fakeapi.Reply{
			Tool: &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{
				"command": "sleep 600", "description": "Run the dev server", "run_in_background": true,
			}},
			Next: &fakeapi.Reply{Text: "Both are running; I'll report when the build log says something."},
		},
	})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("watch the build")
	r.waitFor(claudetest.Completions(1), "completion line (background work still running)", 30*time.Second)
	r.hold(8*time.Second, "idle with a monitor and a shell running")
	r.screen("monitor-running")
}

// vimFooter matches the row under the prompt box that starts with one of
// the vim mode indicators, or (with "") with none of them.
func vimFooter(indicator string) func(string) bool {
	return func(screen string) bool {
		rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
		for i := len(rows) - 1; i > 0; i-- {
			if strings.HasPrefix(rows[i-1], "───") {
				row := strings.TrimSpace(rows[i])
				if indicator == "" {
					return !strings.HasPrefix(row, "-- ")
				}
				return strings.HasPrefix(row, indicator)
			}
		}
		return false
	}
}

// vimWorking is a spinner row above the box and INSERT mode under it.
var vimWorking = regexp.MustCompile(`(?m)^\S \w+….*$(?s:.*)^  -- INSERT --`)

// recordVim: editorMode "vim". The box starts in INSERT mode; Esc while
// Claude works does not interrupt but leaves the box in NORMAL mode,
// which shows no indicator; letters typed then are vim commands ("write a"
// moves a word, replaces a character and appends); VISUAL mode; a paste's
// placeholder.
func recordVim(t *testing.T, r *recording) {
	r.s.API().Handle("work for a while", fakeapi.Reply{Delay: 6 * time.Second, Text: "Done working for a while."})
	lit := func(text string) { r.s.Tmux("send-keys", "-t", r.s.PaneID(), "-l", text); r.mark("typed " + text) }
	r.hold(2*time.Second, "idle in INSERT mode")
	r.screen("vim-insert-idle")
	r.typeText("work for a while")
	// In INSERT mode the busy footer has no "esc to interrupt": Esc is
	// vim's.
	r.waitFor(clitest.Matches(vimWorking), "Claude working, INSERT mode", 10*time.Second)
	r.screen("vim-insert-working")
	r.s.SendKeys("Escape")
	r.waitFor(claudetest.Busy, "NORMAL mode after Esc: no indicator, and esc to interrupt", 5*time.Second)
	r.waitFor(claudetest.Completions(1), "completion line", 30*time.Second)
	r.hold(2*time.Second, "idle in NORMAL mode")
	r.screen("vim-normal-idle")
	lit("write a brief progress summary to CLAUDE.md")
	r.waitFor(clitest.Contains("brief progress summary to CLAUDE.md"), "the garbled text in the box", 5*time.Second)
	r.hold(time.Second, "garbled text in the box")
	r.screen("vim-normal-garbled")
	r.s.SendKeys("C-u")
	r.waitFor(func(s string) bool { return !strings.Contains(s, "brief progress summary") }, "box emptied (ctrl+u)", 5*time.Second)
	r.s.SendKeys("Escape")
	r.waitFor(vimFooter(""), "NORMAL mode", 5*time.Second)
	lit("v")
	r.waitFor(vimFooter("-- VISUAL --"), "VISUAL mode", 5*time.Second)
	r.screen("vim-visual")
	r.s.SendKeys("Escape")
	r.waitFor(vimFooter(""), "NORMAL mode", 5*time.Second)
	lit("i")
	r.waitFor(vimFooter("-- INSERT --"), "INSERT mode (i)", 5*time.Second)
	r.s.Tmux("set-buffer", "-b", "codeman-vim", "line one\nline two\nline three\nline four\nline five\nline six")
	r.s.Tmux("paste-buffer", "-p", "-d", "-b", "codeman-vim", "-t", r.s.PaneID())
	r.waitFor(clitest.Contains("[Pasted text #1 +5 lines]"), "the paste's placeholder", 5*time.Second)
	r.screen("pasted-text")
	r.s.SendKeys("BSpace")
	r.waitFor(func(s string) bool { return !strings.Contains(s, "[Pasted text") }, "one Backspace deleted the placeholder", 5*time.Second)
	r.hold(2*time.Second, "idle in INSERT mode")
}
