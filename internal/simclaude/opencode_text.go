package simclaude

import (
	"strings"
	"time"
)

// Strings of the real OpenCode 1.18.33 screens, verbatim where a recorded
// screen shows them (agents/opencode/testdata/screens), and the values
// its plugin events carry (agents/opencode/testdata/plugin-events).

const (
	opencodeVersion  = "1.18.33"
	opencodeModel    = "Claude Sonnet 4.5 (latest)"
	opencodeProvider = "Anthropic"
	opencodeTitle    = "Fake title" // what the title request names a session
	// opencodeExample is the start screen's placeholder example, which
	// the real CLI picks anew at each start.
	opencodeExample = `Ask anything… "Fix a TODO in the codebase"`
	opencodeTip     = `● Tip Set "rm -rf *": "deny" to block destructive commands`

	opencodePermissionTitle = "△ Permission required"
	opencodeShellKind       = "# Shell command"
	opencodePermissionKeys  = "ctrl+f fullscreen  ⇆ select  enter confirm"

	// The permission scenario runs this command.
	opencodeCommand    = "sleep 6; echo slow done"
	opencodeCommandOut = "slow done"

	opencodeError500   = "Internal server error (fake)"
	opencodeErrorLimit = "You have reached your usage limit (fake)"

	opencodeAgentsFile = "AGENTS.md"
)

// The agents Tab switches between, as the agent row and the turn footer
// name them.
var opencodeAgents = []string{"Build", "Plan"}

// Timing of the OpenCode look (docs/opencode.md). The bar's frame
// interval was not timed on the real CLI, nor how long a first Esc
// waits for its second.
const (
	opencodeBarFrame  = 100 * time.Millisecond
	opencodeEscWindow = time.Second
	// opencodeRetries is how often OpenCode retries a failed model call.
	opencodeRetries = 5
	// opencodeContext is the model's context window, the "% used" of
	// the sidebar.
	opencodeContext = 1_000_000
)

// opencodeBar is the working bar's cycle: the ■ cells fill the 8-cell
// bar from the left and leave it to the right.
var opencodeBar = func() []string {
	var frames []string
	for i := range 9 {
		frames = append(frames, strings.Repeat("■", i)+strings.Repeat("⬝", 8-i))
	}
	for i := 1; i < 8; i++ {
		frames = append(frames, strings.Repeat("⬝", i)+strings.Repeat("■", 8-i))
	}
	return frames
}()

// opencodeLogo is the logo of the start screen and the exit.
var opencodeLogo = []string{
	"                                 ▄",
	"█▀▀█ █▀▀█ █▀▀█ █▀▀▄ █▀▀▀ █▀▀█ █▀▀█ █▀▀█",
	"█  █ █  █ █▀▀▀ █  █ █    █  █ █  █ █▀▀▀",
	"▀▀▀▀ █▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀",
}

// opencodePopups are the slash popups of the recorded commands, shown
// while the composer holds the command exactly; Enter completes the
// first one.
var opencodePopups = map[string][][2]string{
	"/new":   {{"/new", "New session"}, {"/diff", "Open diff viewer"}},
	"/clear": {{"/new", "New session"}},
	"/init":  {{"/init", "guided AGENTS.md setup"}, {"/review", "review changes [commit|branch|pr], defaults to uncommitted"}},
}

// opencodeRunsAtOnce are the popup commands the first Enter runs.
var opencodeRunsAtOnce = map[string]bool{"/new": true}

// opencodeAgentsLines are what /init's write puts in AGENTS.md (on screen
// only; no file is touched).
var opencodeAgentsLines = []string{"# AGENTS.md", "", "A fake project.", ""}

// opencodeInitPrompt is the start and the end of the prompt /init sends,
// as the recordings show them; its middle, which no recording shows in
// full, is left out. %s is the project's root.
const opencodeInitPrompt = "Create or update `AGENTS.md` for this repository.\n\n" +
	"The goal is a compact instruction file that helps future OpenCode sessions avoid mistakes and ramp up quickly.\n\n" +
	"Good `AGENTS.md` content is usually hard-earned context that took reading multiple files to infer.\n\n" +
	"## Questions\n\n" +
	"Only ask the user questions if the repo cannot answer something important. Use the `question` tool for one short batch at most.\n\n" +
	"Good questions:\n" +
	"- undocumented team conventions\n" +
	"- branch / PR / release expectations\n" +
	"- missing setup or test prerequisites that are known but not written down\n\n" +
	"Do not ask about anything the repo already makes clear.\n\n" +
	"## Writing rules\n\n" +
	"Include only high-signal, repo-specific guidance such as:\n" +
	"- exact commands and shortcuts the agent would otherwise guess wrong\n" +
	"- architecture notes that are not obvious from filenames\n" +
	"- conventions that differ from language or framework defaults\n" +
	"- setup requirements, environment quirks, and operational gotchas\n" +
	"- references to existing instruction sources that matter\n\n" +
	"Exclude:\n" +
	"- generic software advice\n" +
	"- long tutorials or exhaustive file trees\n" +
	"- obvious language conventions\n" +
	"- speculative claims or anything you could not verify\n" +
	"- content better stored in another file referenced via `opencode.json` `instructions`\n\n" +
	"When in doubt, omit.\n\n" +
	"Prefer short sections and bullets. If the repo is simple, keep the file simple. " +
	"If the repo is large, summarize the few structural facts that actually change how an agent should work.\n\n" +
	"If `AGENTS.md` already exists at `%s`, improve it in place rather than rewriting blindly. " +
	"Preserve verified useful guidance, delete fluff or stale claims, and reconcile it with the current codebase."
