package simclaude

// Strings of the real Codex CLI 0.171.0 screens, verbatim where a recorded
// screen shows them (agents/codex/testdata/screens), and the payload
// values its hooks carry (hooks/testdata/codex).

const (
	codexVersion    = "0.171.0"
	codexModel      = "gpt-5.5"
	codexModelLabel = "GPT-5.5 default"
	// codexTaskTitle is the title Codex's side request names the task
	// by; the recordings' fake API answers this one.
	codexTaskTitle   = "Fake task"
	codexPlaceholder = "Ask Codex to do anything"
	codexShortcuts   = "← for agents · ? for shortcuts"

	codexInterrupted = "Conversation interrupted - use /feedback if something went wrong"
	codexAPIError    = "We’re currently experiencing high demand, which may cause temporary errors."

	// The approval scenario asks for the command of the approval recording.
	codexRiskyCommand = "rm -rf ./build-output"
	codexRiskyReason  = "Do you want to delete the build output?"
	codexRiskyIntro   = "I'll remove the old build output first."
)

// codexSpinner is the braille spinner in the pane title while a turn runs.
var codexSpinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// codexLogo is the start screen's logo, centred under the header.
var codexLogo = []string{
	"           ⣀⣤⣤⣤⣀⣀",
	"        ⣠⣶⣿⣿⣿⣿⣿⣿⣿⣿⣦⣤⣤⣤⣤⣤⣤⡀",
	"      ⢀⣾⣿⣿⠿⠋⠉⠉⢉⣭⣿⣿⣿⣿⣿⠿⣿⣿⣿⣿⣷⣄",
	"     ⣀⣾⣿⣿⠃ ⣀⣴⣾⣿⣿⡿⠟⠋ ⣀⡀ ⠈⠙⢿⣿⣿⣧",
	"  ⣀⣶⣿⣿⣿⣿⡇ ⢸⣿⣿⡿⠛⠉⢀⣠⣴⣿⣿⣿⣷⣦⣀⠈⢻⣿⣿⡇",
	" ⣰⣿⣿⡿⢿⣿⣿⡇ ⢸⣿⣿⢀⣤⣶⣿⣿⣿⠟⠛⠻⣿⣿⣿⣿⣮⣿⣿⡷",
	"⢰⣿⣿⡟⠁⢸⣿⣿⡇ ⢸⣿⣿⣿⣿⠿⠿⣿⣿⣿⣦⣄⡀⠈⠛⠿⣿⣿⣿⣧⡀",
	"⣾⣿⣿⠃ ⢸⣿⣿⡇ ⢸⣿⣿⠋⠁  ⠈⠙⢻⣿⣿⣿⣶⣤⡀ ⠹⢿⣿⣷⡄",
	"⢸⣿⣿⣇ ⠸⣿⣿⣷⣦⣼⣿⣿      ⢸⣿⣿⠻⢿⣿⣿⡇ ⠘⣿⣿⣿",
	"⠈⢿⣿⣿⣦⡀⠈⠛⠿⣿⣿⣿⣿⣄⡀  ⢀⣠⣼⣿⣿  ⣿⣿⡇  ⣿⣿⣿⠇",
	"  ⢻⣿⣿⣿⣷⣦⣀⠈⠙⠻⣿⣿⣿⣶⣶⣿⣿⣿⣿⣿  ⣿⣿⡇ ⣠⣿⣿⣿",
	"  ⢸⣿⣿⡿⢿⣿⣿⣿⣦⣠⣴⣿⣿⣿⡿⠟⠋⢸⣿⣿  ⣿⣿⣷⣴⣿⣿⣿⠃",
	"  ⠘⣿⣿⣷ ⠈⠛⢿⣿⣿⣿⠿⠋⠉ ⣠⣴⣿⣿⣿  ⣿⣿⣿⣿⣿⠟⠁",
	"   ⠻⣿⣿⣿⣤⣀ ⠈⠉ ⢀⣤⣶⣿⣿⣿⠿⠟⠁ ⣰⣿⣿⡟⠋⠁",
	"    ⠈⠿⣿⣿⣿⣿⣶⣾⣿⣿⣿⣿⠟⠋⠁  ⣠⣼⣿⣿⡟",
	"       ⠙⠛⠛⠛⠻⠛⢿⣿⣿⣿⣿⣷⣾⣿⣿⣿⡿⠏",
	"              ⠈⠙⠛⠿⠿⠿⠿⠛⠉",
}

// codexSlashCommands are the commands the sim knows, as Codex's popup
// describes them.
var codexSlashCommands = []slashCommand{
	{"/new", "start a new chat during a conversation"},
	{"/init", "create an AGENTS.md file with instructions for Codex"},
	{"/compact", "summarize conversation to prevent hitting the context limit"},
	{"/clear", "clear the terminal and start a new chat"},
	{"/exit", "exit Codex"},
	{"/quit", "exit Codex"},
}

// codexInitPrompt is the prompt /init sends (echoed whole in the transcript).
const codexInitPrompt = "Generate a file named AGENTS.md that serves as a contributor guide for this repository.\n" +
	"Before writing, check whether AGENTS.md already exists in the current working directory. If it does, do not overwrite or modify it.\n" +
	"Your goal is to produce a clear, concise, and well-structured document with descriptive headings and actionable explanations for each section.\n" +
	"Follow the outline below, but adapt as needed — add sections if relevant, and omit those that do not apply to this project.\n\n" +
	"Document Requirements\n\n" +
	"- Title the document \"Repository Guidelines\".\n" +
	"- Use Markdown headings (#, ##, etc.) for structure.\n" +
	"- Keep the document concise. 200-400 words is optimal.\n" +
	"- Keep explanations short, direct, and specific to this repository.\n" +
	"- Provide examples where helpful (commands, directory paths, naming patterns).\n" +
	"- Maintain a professional, instructional tone.\n\n" +
	"Recommended Sections\n\n" +
	"Project Structure & Module Organization\n\n" +
	"- Outline the project structure, including where the source code, tests, and assets are located.\n\n" +
	"Build, Test, and Development Commands\n\n" +
	"- List key commands for building, testing, and running locally (e.g., npm test, make build).\n" +
	"- Briefly explain what each command does.\n\n" +
	"Coding Style & Naming Conventions\n\n" +
	"- Specify indentation rules, language-specific style preferences, and naming patterns.\n" +
	"- Include any formatting or linting tools used.\n\n" +
	"Testing Guidelines\n\n" +
	"- Identify testing frameworks and coverage requirements.\n" +
	"- State test naming conventions and how to run tests.\n\n" +
	"Commit & Pull Request Guidelines\n\n" +
	"- Summarize commit message conventions found in the project’s Git history.\n" +
	"- Outline pull request requirements (descriptions, linked issues, screenshots, etc.).\n\n" +
	"(Optional) Add other sections if relevant, such as Security & Configuration Tips, Architecture Overview, or Agent-Specific Instructions.\n"

// /init's patch adds this AGENTS.md (on screen only; no file is touched).
var agentsMDLines = []string{"# Repository Guidelines", "", "Run `go test ./...` before every commit."}
