package simclaude

// Strings of the real Claude Code 2.1.328 screens, verbatim where a capture
// shows them (agents/claude/testdata/screens).

const (
	claudeVersion = "2.1.328"
	modelLabel    = "Opus 5.5 · API Usage Billing"
	modelID       = "claude-opus-5-5"
	nbsp          = "\u00a0"

	// The input line is "❯" + U+00A0; the tip row and ⎿ results put
	// U+00A0 after "⎿ ". Both survive capture-pane -p.
	inputMark  = "❯" + nbsp
	resultMark = "⎿ " + nbsp

	placeholderQueued = "Press up to edit queued messages"
	placeholderResend = "Resend your message to try again"
	effortNotice      = "◐ medium · /effort"
	ctrlCAgain        = "Press Ctrl-C again to exit"
	interruptedLine   = "Interrupted · What should Claude do instead?"
	queuedLine        = "⎿  Queued · ctrl+x ctrl+s to send now"

	idleMessage       = "Claude is waiting for your input"
	permissionMessage = "Claude needs your permission"
	planMessage       = "Claude Code needs your approval for the plan"

	apiError529 = "API Error: 529 Overloaded (fake). This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:8765)."
)

// spinnerGlyphs cycle forward and back, one frame per spinnerFrame.
var spinnerGlyphs = []string{"·", "✢", "*", "✶", "✻", "✽", "✽", "✻", "✶", "*", "✢", "·"}

// spinnerVerbs is a sample of the built-in list (about 190 in the binary).
var spinnerVerbs = []string{
	"Accomplishing", "Baking", "Brewing", "Clauding", "Coalescing", "Cogitating",
	"Computing", "Conjuring", "Enchanting", "Gesticulating", "Leavening",
	"Metamorphosing", "Musing", "Pondering", "Simmering", "Sublimating",
	"Swooping", "Thinking", "Tinkering", "Working", "Zigzagging",
}

// completionVerbs are the verbs of the "✻ <Verb> for 3s" line.
var completionVerbs = []string{
	"Baked", "Brewed", "Churned", "Cogitated", "Cooked", "Crunched", "Sautéed", "Worked",
}

var tips = []string{
	"Use /theme to change the color theme",
	"Run claude --continue or claude --resume to resume a session",
	"Use ctrl+v to paste images from your clipboard",
}

// Ordinary turns run one read-only Bash command.
const (
	bashCommand     = "git status --short && ls"
	bashDescription = "Show the working tree status and list files"
	bashStdout      = "README.md\ngo.mod\nmain.go"
)

// The permission scenario asks for the command of capture 14.
const (
	riskyCommand     = "rm -rf ./build-output-does-not-exist && curl -s http://127.0.0.1:9/ || true"
	riskyDescription = "Delete build output and probe a local port"
	riskyProgress    = "Deleting build output and probing a local port"
	riskyRuleRm      = "rm -rf ./build-output-does-not-exist"
	riskyRuleCurl    = "curl -s http://127.0.0.1:9/"
)

// The question scenario asks the AskUserQuestion of capture 21.
const (
	questionHeader = "Database"
	questionText   = "Which database should the project use?"
)

var questionOptions = []struct{ label, description string }{
	{"PostgreSQL", "Relational, strong consistency"},
	{"SQLite", "Embedded, zero setup"},
	{"Redis", "In-memory key-value store"},
}

// The plan scenario shows the plan of captures 32/32b.
const (
	planSlug     = "cozy-petting-rivest"
	planMarkdown = "# Fake plan: add hello.txt\n\n## Steps\n1. Create `hello.txt` with a greeting\n2. Run the tests\n3. Commit the change\n"
	planQuestion = "Claude has written up a plan and is ready to execute. Would you like to proceed?"
	planApproved = "ExitPlanMode result: User has approved your plan. You can now start coding. Start with updating your todo list if applicable"
)

var planOptions = []string{"Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"}

// The background scenario starts the subagent of captures 48/49.
const (
	agentDescription = "Say hi subtask"
	agentType        = "general-purpose"
)

// /init writes this CLAUDE.md (on screen only; no file is touched).
var claudeMDLines = []string{"# CLAUDE.md", "", "Project notes for this repository."}
