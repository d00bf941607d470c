package codextest_test

import (
	"os"
	"path/filepath"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// scenario is one recording: what to script and type, what to wait for,
// which screens and hook payloads it yields.
type scenario struct {
	name string
	opts codextest.Options
	run  func(r *recording)
}

// Key strings every idle screen shows: the empty composer and its footer,
// whose first row (model and directory) and "← for agents" come once the
// session is set up, a moment after the composer.
const (
	composer = "› " + codextest.Placeholder
	footer   = "? for shortcuts"
	settled  = "← for agents · ? for shortcuts"
	busy     = "esc to interrupt"
)

var scenarios = []scenario{
	{name: "idle", run: recordIdle},
	{name: "long-work", run: recordLongWork},
	{name: "turn-ends", run: recordTurnEnds, opts: codextest.Options{Files: map[string]string{"README.md": "# demo\n"}}},
	{name: "approval", run: recordApproval},
	{name: "interrupt", run: recordInterrupt},
	{name: "api-error", run: recordAPIError},
	{name: "overloaded", run: recordOverloaded},
	{name: "rate-limit", run: recordRateLimit},
	{name: "usage-limit", run: recordUsageLimit},
	{name: "weekly-limit", run: recordWeeklyLimit},
	{name: "init", run: recordInit, opts: codextest.Options{Files: map[string]string{"main.go": "package main\n\nfunc main() {}\n"}}},
	{name: "compact", run: recordCompact},
	{name: "clear", run: recordClear},
	{name: "new", run: recordNew},
	{name: "exit", run: recordExit},
}

// recordIdle: the start screen, left alone. Codex starts its session (and
// runs SessionStart) only with the first prompt.
func recordIdle(r *recording) {
	r.screen("idle", ">_ OpenAI Codex (v", "/proj", composer, "GPT-5.5 default · ~/proj", settled, "!"+busy)
	r.hold(6*time.Second, "idle start screen")
}

// recordLongWork: the working status while the model is slow to answer,
// then a reply streamed in pieces, then the done line.
func recordLongWork(r *recording) {
	r.s.API().Handle("refactor the parser", fakeopenai.Reply{
		Delay: r.dur(20 * time.Second),
		Chunks: []fakeopenai.Chunk{
			{Text: "I refactored the parser into three smaller functions.\n\n"},
			// Not shortened when checking: the streaming screen must
			// be caught between the two pieces.
			{Pause: 4 * time.Second, Text: "The tests still pass."},
		},
	})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("refactor the parser")
	r.screen("working", "› refactor the parser", "• Working (", busy, composer, footer)
	r.hold(3*time.Second, "working")
	r.screen("streaming", "I refactored the parser into three smaller functions.", "!The tests still pass.")
	r.screen("done", "The tests still pass.", "Worked for", composer, footer, "!"+busy)
	r.hold(5*time.Second, "idle after the turn")
}

// recordTurnEnds: a reply, a read-only command that runs without asking,
// a follow-up, the done line, then idle.
func recordTurnEnds(r *recording) {
	r.s.API().Handle("list the project files", fakeopenai.Reply{
		Chunks: []fakeopenai.Chunk{
			{Text: "I'll take a look at the project first."},
			{Pause: r.dur(2 * time.Second), Text: " Let me list the files."},
		},
		Tool: fakeopenai.Shell("ls -a"),
		Next: &fakeopenai.Reply{Chunks: []fakeopenai.Chunk{
			{Pause: r.dur(time.Second), Text: "The project has a single `README.md`"},
			{Pause: r.dur(time.Second), Text: " and nothing else yet."},
		}},
	})
	start := time.Now()
	r.hold(3*time.Second, "idle before the prompt")
	r.typeText("list the project files")
	r.waitFor(clitest.Contains("ls -a"), "the command shows", 20*time.Second)
	r.screen("turn-done", "• Explored", "and nothing else yet.", "Worked for", composer, footer, "!"+busy)
	r.hook("session-start", hookAfter("SessionStart", start), "SessionStart")
	r.hook("user-prompt-submit", hookAfter("UserPromptSubmit", start), "UserPromptSubmit")
	r.hook("pre-model-request", hookAfter("PreModelRequest", start), "PreModelRequest")
	r.hook("post-model-request", hookAfter("PostModelRequest", start), "PostModelRequest")
	r.hook("pre-tool-use", hookAfter("PreToolUse", start), "PreToolUse")
	r.hook("post-tool-use", hookAfter("PostToolUse", start), "PostToolUse")
	r.hook("stop", hookAfter("Stop", start), "Stop")
	// Codex notifies the end of every turn of every thread: the title
	// side request runs as a thread of its own.
	session := r.s.WaitForEvent(hookAfter("SessionStart", start), "SessionStart", 5*time.Second).Field("session_id")
	r.hook("notify-agent-turn-complete", threadTurnComplete(start, session, true), "notify agent-turn-complete")
	r.hook("notify-agent-turn-complete-title", threadTurnComplete(start, session, false), "notify agent-turn-complete of the title thread")
	r.hold(10*time.Second, "idle after the turn")
}

// recordApproval: a command that asks to run outside the sandbox; the
// approval prompt is left open.
func recordApproval(r *recording) {
	r.s.API().Handle("clean the build", fakeopenai.Reply{
		Text: "I'll remove the old build output first.",
		Tool: fakeopenai.EscalatedShell("rm -rf ./build-output", "Do you want to delete the build output?"),
		Next: &fakeopenai.Reply{Text: "The build output is gone."},
	})
	start := time.Now()
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("clean the build")
	r.screen("approval", "Would you like to run the following command?", "Reason: Do you want to delete the build output?",
		"$ rm -rf ./build-output", "› 1. Yes, proceed (y)", "3. No, and tell Codex what to do differently (esc)",
		"Press enter to confirm or esc to cancel", "!"+footer, "!"+busy)
	r.hook("pre-tool-use-escalated", hookAfter("PreToolUse", start), "PreToolUse")
	r.hook("permission-request", hookAfter("PermissionRequest", start), "PermissionRequest")
	r.hold(12*time.Second, "the approval prompt left open")
}

// recordInterrupt: Esc while the model is slow to answer.
func recordInterrupt(r *recording) {
	r.s.API().Handle("rewrite everything", fakeopenai.Reply{Delay: time.Minute, Text: "Too late."})
	start := time.Now()
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("rewrite everything")
	r.waitFor(codextest.Working, "working", 10*time.Second)
	r.hold(3*time.Second, "working")
	r.keys("Escape")
	r.screen("interrupted", "■ Conversation interrupted", composer, footer, "!"+busy)
	r.hook("interrupt", hookAfter("Interrupt", start), "Interrupt")
	r.hold(5*time.Second, "idle after the interrupt")
}

// recordAPIError: every request of the turn answered with a 500.
func recordAPIError(r *recording) {
	r.s.API().Handle("deploy the service", fakeopenai.Reply{Status: 500})
	start := time.Now()
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("deploy the service")
	r.screen("api-error", "■ We’re currently experiencing high demand, which may cause temporary errors.", composer, footer, "!"+busy)
	r.hook("post-model-request-failed", failedModelRequest(start), "PostModelRequest failed")
	r.hold(6*time.Second, "idle after the error")
}

// recordOverloaded: a 503 server_is_overloaded.
func recordOverloaded(r *recording) {
	r.s.API().Handle("deploy the service", fakeopenai.Reply{Status: 503})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("deploy the service")
	r.screen("overloaded", "■ Selected model is at capacity. Please try a different model.", composer, footer, "!"+busy)
	r.hold(6*time.Second, "idle after the error")
}

// recordRateLimit: a plain 429 rate limit, which Codex reports as a
// failed request rather than a usage limit.
func recordRateLimit(r *recording) {
	r.s.API().Handle("deploy the service", fakeopenai.Reply{Status: 429})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("deploy the service")
	r.screen("rate-limit", "■ exceeded retry limit, last status: 429 Too Many Requests", composer, footer, "!"+busy)
	r.hold(6*time.Second, "idle after the error")
}

// recordUsageLimit: a 5-hour usage limit; Codex offers a cheaper model in
// a menu, left open a while, then dismissed with Esc.
func recordUsageLimit(r *recording) {
	r.s.API().Handle("keep going", fakeopenai.Reply{Status: 429,
		UsageLimit: &fakeopenai.UsageLimit{ResetAt: time.Now().Add(2*time.Hour + 30*time.Minute)}})
	start := time.Now()
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.screen("usage-limit", "■ You’ve hit your usage limit.", "or try again at ", "Approaching rate limits",
		"› 1. Switch to ", "2. Keep current model", "enter select · esc back", "!"+footer)
	r.hook("post-model-request-usage-limit", failedModelRequest(start), "PostModelRequest failed")
	r.hold(8*time.Second, "the model menu left open")
	r.keys("Escape")
	r.screen("usage-limit-dismissed", "■ You’ve hit your usage limit.", "⚠ 5h limit: ", composer, footer, "!enter select")
	r.hold(5*time.Second, "idle after the limit")
}

// recordWeeklyLimit: the weekly limit, resetting in two days.
func recordWeeklyLimit(r *recording) {
	r.s.API().Handle("keep going", fakeopenai.Reply{Status: 429,
		UsageLimit: &fakeopenai.UsageLimit{Weekly: true, ResetAt: time.Now().Add(50 * time.Hour)}})
	r.hold(2*time.Second, "idle before the prompt")
	r.typeText("keep going")
	r.screen("weekly-limit", "■ You’ve hit your usage limit.", "or try again at ", "Approaching rate limits", "enter select · esc back")
	r.hold(8*time.Second, "the model menu left open")
}

// agentsPatch is what the fake writes for /init.
const agentsPatch = "*** Begin Patch\n*** Add File: AGENTS.md\n+# Repository Guidelines\n+\n+Run `go test ./...` before every commit.\n*** End Patch\n"

// recordInit: /init; the fake answers its prompt by adding AGENTS.md.
func recordInit(r *recording) {
	r.s.API().Handle("Generate a file named AGENTS.md", fakeopenai.Reply{
		Text: "I'll write a short contributor guide.",
		Tool: fakeopenai.ApplyPatch(agentsPatch),
		Next: &fakeopenai.Reply{Text: "Created AGENTS.md with the repository guidelines."},
	})
	start := time.Now()
	r.hold(2*time.Second, "idle before /init")
	r.typeText("/init")
	r.screen("init-done", "(Optional) Add other sections if relevant", "• Added AGENTS.md (+3 -0)", "Created AGENTS.md", "Worked for",
		composer, footer, "!"+busy)
	if _, err := os.Stat(filepath.Join(r.s.Dir(), "AGENTS.md")); err != nil {
		r.t.Errorf("/init wrote no AGENTS.md: %v", err)
	}
	r.hook("pre-tool-use-apply-patch", hookAfter("PreToolUse", start), "PreToolUse")
	r.hook("post-tool-use-apply-patch", hookAfter("PostToolUse", start), "PostToolUse")
	r.hold(5*time.Second, "idle after /init")
}

// recordCompact: a turn, then /compact.
func recordCompact(r *recording) {
	r.s.API().Handle("say hello", fakeopenai.Reply{Text: "Hello!"})
	r.s.API().Handle("CONTEXT CHECKPOINT COMPACTION", fakeopenai.Reply{Text: "Summary: the user said hello."})
	r.typeText("say hello")
	r.waitFor(codextest.Done(1), "the done line", 20*time.Second)
	start := time.Now()
	r.hold(2*time.Second, "idle before /compact")
	r.typeText("/compact")
	r.screen("compacted", "Context compacted", composer, footer, "!"+busy)
	r.hook("pre-compact", hookAfter("PreCompact", start), "PreCompact")
	r.hook("post-compact", hookAfter("PostCompact", start), "PostCompact")
	r.hold(4*time.Second, "idle after /compact")
}

// recordClear and recordNew: a turn, then a fresh conversation, then a
// prompt in it.
func recordClear(r *recording) { recordFresh(r, "/clear", "clear") }
func recordNew(r *recording)   { recordFresh(r, "/new", "new") }

func recordFresh(r *recording, command, name string) {
	r.s.API().Handle("say hello", fakeopenai.Reply{Text: "Hello from the first conversation."})
	r.s.API().Handle("say again", fakeopenai.Reply{Text: "Hello from the second conversation."})
	r.typeText("say hello")
	r.waitFor(codextest.Done(1), "the done line", 20*time.Second)
	r.hold(2*time.Second, "idle before "+command)
	start := time.Now()
	r.typeText(command)
	r.screen(name, ">_ OpenAI Codex (v", composer, settled, "!Hello from the first conversation.")
	r.hold(3*time.Second, "idle after "+command)
	r.typeText("say again")
	r.waitFor(clitest.Contains("Hello from the second conversation."), "the reply in the new conversation", 20*time.Second)
	r.hook("session-start-"+name, hookAfter("SessionStart", start), "SessionStart")
	r.hold(3*time.Second, "idle in the new conversation")
}

// recordExit: /exit; the pane keeps what Codex printed as it left.
func recordExit(r *recording) {
	r.s.API().Handle("say hello", fakeopenai.Reply{Text: "Hello!"})
	r.typeText("say hello")
	r.waitFor(codextest.Done(1), "the done line", 20*time.Second)
	start := time.Now()
	r.hold(2*time.Second, "idle before /exit")
	r.typeText("/exit")
	r.s.WaitForExit(10 * time.Second)
	r.mark("codex exited")
	r.screen("exited", "To continue this session, run:", "codex resume ")
	r.hook("session-end", hookAfter("SessionEnd", start), "SessionEnd")
}

// hookAfter matches a call of the named hook made after since.
func hookAfter(name string, since time.Time) func(codextest.Event) bool {
	return codextest.Hook(name, since)
}

// threadTurnComplete matches an agent-turn-complete notification of the
// session's own thread, or with own false of another thread.
func threadTurnComplete(since time.Time, session string, own bool) func(codextest.Event) bool {
	return func(e codextest.Event) bool {
		return codextest.Notify("agent-turn-complete", since)(e) && (e.Field("thread-id") == session) == own
	}
}

// failedModelRequest matches the PostModelRequest of a failed request.
func failedModelRequest(since time.Time) func(codextest.Event) bool {
	return func(e codextest.Event) bool {
		return codextest.Hook("PostModelRequest", since)(e) && e.Field("status") == "failed"
	}
}
