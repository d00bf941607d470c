package simclaude

import "time"

// Strings of the real GitHub Copilot CLI 1.0.102 screens, verbatim where a
// recorded screen shows them (agents/copilot/testdata/screens), and the
// payload values its hooks carry (agents/copilot/testdata/hooks).

const (
	copilotVersion = "1.0.102"
	copilotModel   = "gpt-5.5"
	copilotTitle   = "GitHub Copilot"

	copilotTabs      = " [Current]  Sessions   Issues   Pull requests   Gists"
	copilotMCP       = "MCP Servers reloaded: 0 servers connected"
	copilotCancelled = "Operation cancelled by user"
	copilotCarried   = "Execution mode carried forward: Interactive. Permission policy carried forward: " +
		"Manual Approval for this session. Defaults for future sessions: unchanged."
	copilotFresh = "Started a fresh session. " + copilotCarried // /clear, /reset
	copilotNew   = "Started a new session. " + copilotCarried   // /new

	copilotRetrying = "Request failed due to a transient API error. Retrying..."
	copilotFailed   = "Failed to get response from the AI model; retried 5 times (total retry wait time: %.2f seconds) Last error: %s"
	copilotError500 = "500 The server had an error while processing your request (fake)"
	copilotError429 = "429 The usage limit has been reached (fake)"

	// The permission scenario asks for this command; rm is the command
	// Copilot offers to stop asking for.
	copilotRiskyCommand = "rm -rf ./build-output"
	copilotRiskyDesc    = "Delete the build output"
	copilotRiskyVerb    = "rm"

	copilotQuestion = "Which database should the service use?"

	copilotPlanSummary = "- Add a README.md with one line\n- No other files change"

	copilotInstructions = ".github/copilot-instructions.md"

	// copilotAllowWrite is the --allow-tool pattern of every file write.
	copilotAllowWrite = "write"
)

// Timing of the Copilot look (docs/copilot.md).
const (
	copilotGlyphFrame = 120 * time.Millisecond // the working glyph's frame
	// copilotEscWindow is how soon a second Esc must follow the first to
	// interrupt; the real hint was gone 2 s later, 150 ms apart worked.
	copilotEscWindow = time.Second
	// copilotPasteChars is how many characters (a CR counting) one read
	// holds for Copilot to take it as a paste.
	copilotPasteChars = 32
)

// copilotGlyphs is the working glyph's cycle.
var copilotGlyphs = []string{"○", "◎", "◉", "●", "◉", "◎"}

// copilotLogo is the start screen's logo, with its line of text each.
var copilotLogo = [][2]string{
	{"  ╭─╮╭─╮", ""},
	{"  ╰─╯╰─╯", "  Copilot v" + copilotVersion + " uses AI."},
	{"  █ ▘▝ █", "  Check for mistakes."},
	{"   ▔▔▔▔", ""},
}

// copilotQuestionOptions are the ask_user enum of the question recording:
// what the picker shows, what the answer says.
var copilotQuestionOptions = []struct{ label, value string }{
	{"PostgreSQL", "postgres"},
	{"SQLite", "sqlite"},
}

// copilotPlanOptions are the plan approval's options.
var copilotPlanOptions = []string{
	"Accept plan and continue in Interactive execution mode (Manual Approval for this session; future defaults unchanged) (recommended)",
	"Accept plan and continue in Autopilot execution mode",
	"Exit to Interactive execution mode without running the plan (Manual Approval for this session; future defaults unchanged)",
	"Suggest changes",
}

// copilotPopups are the slash popups and argument hints of the recorded
// commands, shown while the box holds the command exactly.
var copilotPopups = map[string]struct {
	hint string
	rows []string
	help bool // the footer offers /help rather than @ files
}{
	"/clear": {"/clear [prompt]", []string{
		"  ❯ /clear                              Abandon this session and start fresh",
		"    /refine                             Rewrite a rough, stream-of-consciousness prompt into a clear one for review (Ctrl+X / then /refine cleans up your current input)",
	}, true},
	"/reset": {"/reset [prompt]", []string{
		"  ❯ /reset                              Abandon this session and start fresh",
		"    /reset-allowed-tools                Reset session tool and exact-path approvals",
		"    /release-notes                      Display changelog for CLI versions. Add 'summarize' to get an AI summary.",
	}, true},
	"/new":  {"/new [worktree|<prompt>]", []string{"  ❯ /new", "    /new worktree  Start an empty session in a new worktree"}, false},
	"/init": {"/init [suppress]", []string{"  ❯ /init", "    /init suppress  Stop suggesting init for this folder"}, false},
	"/exit": {"/exit [print]", []string{"  ❯ /exit", "    /exit print  Print the session after exiting"}, false},
}

// copilotInitPrompt is the prompt /init sends.
const copilotInitPrompt = "Analyze this codebase and create a .github/copilot-instructions.md file to help future Copilot sessions work effectively in this repository.\n\n" +
	"## What to include\n\n" +
	"1. **Build, test, and lint commands** - If they exist. Include how to run a single test, not just the full suite\n" +
	"2. **High-level architecture** - Focus on the \"big picture\" that requires reading multiple files to understand\n" +
	"3. **Key conventions** - Patterns specific to this codebase that aren't obvious from reading a single file\n\n" +
	"## What NOT to include\n\n" +
	"- Generic development practices (e.g., \"write unit tests\", \"use meaningful names\")\n" +
	"- Obvious instructions that any developer would know\n" +
	"- Exhaustive file/directory listings that can be easily discovered\n" +
	"- Made-up sections like \"Tips for Development\" unless they exist in actual docs\n" +
	"- Explanations of why something ISN'T relevant (just omit it)\n\n" +
	"## Integration\n\n" +
	"- If .github/copilot-instructions.md already exists, suggest improvements rather than replacing it entirely\n" +
	"- Incorporate important parts from README.md, CONTRIBUTING.md, or existing instruction files\n" +
	"- Check for other AI assistant configs and incorporate their important parts:\n" +
	"  - Claude/OpenCode: CLAUDE.md\n" +
	"  - Cursor: .cursorrules, .cursor/rules/\n" +
	"  - Codex/Jules/OpenCode: AGENTS.md\n" +
	"  - Windsurf: .windsurfrules\n" +
	"  - Aider: CONVENTIONS.md, AIDER_CONVENTIONS.md\n" +
	"  - Cline: .clinerules, .cline_rules\n\n" +
	"## MCP Servers\n\n" +
	"After creating the file, briefly ask if the user wants to configure any MCP servers relevant to the project type (e.g., Playwright for web projects). " +
	"If none seem relevant, skip this section entirely - do not explain why MCP servers aren't needed.\n\n" +
	"## Finishing up\n\n" +
	"End with a brief summary of what you created and ask if the user wants to adjust anything or add coverage for areas you may have missed. Do not list what you omitted.\n\n" +
	"Start by exploring the repository structure."

// /init's patch adds these lines (on screen only; no file is touched).
var copilotInstructionLines = []string{"# Copilot instructions", "", "Run `make test` to test.", ""}
