package aicheck

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

var copilotSpec = cliSpec{
	exe:        "copilot",
	product:    "the GitHub Copilot CLI",
	pathKey:    "checks.copilot_path",
	command:    "copilot",
	args:       copilotArgs,
	env:        copilotEnv,
	decode:     decodeCopilot,
	findLimit:  findCopilotLimit,
	idlePrompt: copilotIdlePrompt,
	planPrompt: copilotPlanPrompt,
}

// noTools is the tool allowlist of a check: a name no tool has, so the
// model is offered none. An empty --available-tools is ignored by 1.0.102.
const noTools = "codeman-check-no-tools"

// copilotArgs are the check's arguments; the prompt comes on piped stdin,
// which runs Copilot in prompt mode as -p does.
//   - --output-format json: the answer and the errors come as events on
//     stdout. The plain output mixes info rows into the answer, and -s
//     drops the error of a failed turn altogether.
//   - --available-tools with no real tool, and shell and file writes
//     denied besides: a reply can neither read, run nor change anything.
//   - no built-in MCP servers, no ask_user, no custom instructions, no
//     auto-update: nothing to wait for, nothing of a project's, no
//     download in the middle of a check.
//
// Claude's default check model means nothing to Copilot: with it, the
// user's configured model (COPILOT_MODEL, settings) answers.
func copilotArgs(model string) []string {
	args := []string{"--output-format", "json",
		"--available-tools=" + noTools, "--deny-tool=shell", "--deny-tool=write",
		"--disable-builtin-mcps", "--no-ask-user", "--no-custom-instructions", "--no-auto-update"}
	if model != respawn.DefaultCheckModel {
		args = append(args, "--model", model)
	}
	return args
}

// copilotSessionVars are what a running Copilot puts in the environment of
// its hooks and tools. A daemon started from inside a Copilot session
// inherits them, and a check must not run as part of that session.
var copilotSessionVars = map[string]bool{
	"COPILOT_CLI":                   true,
	"COPILOT_LOADER_PID":            true,
	"COPILOT_HOOK_DIR":              true,
	"COPILOT_PROJECT_DIR":           true,
	"COPILOT_CLI_BINARY_VERSION":    true,
	"COPILOT_CLI_RESOLVED_DIST_DIR": true,
}

// copilotEnv drops Copilot's session variables. The user's provider
// variables (COPILOT_PROVIDER_*, COPILOT_MODEL, COPILOT_HOME, tokens) stay.
func copilotEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !copilotSessionVars[name] {
			out = append(out, kv)
		}
	}
	return out
}

// copilotEvent is the part of a JSONL event of --output-format json a
// check reads.
type copilotEvent struct {
	Type string `json:"type"`
	Data struct {
		Content string `json:"content"` // of assistant.message
		Message string `json:"message"` // of session.error
	} `json:"data"`
	ExitCode *int `json:"exitCode"` // of result
}

// decodeCopilot reads Copilot's JSONL events. The answer is the last
// assistant message of a run whose result event reports exit code 0: a
// reply before a tool call is a message too, and a failed run may have
// one. The errors are the session.error messages (`Failed to get response
// from the AI model; … Last error: 429 …`, `Authentication failed with
// provider …`), ahead of lines that are not events and of stderr.
func decodeCopilot(out output) output {
	var answer string
	var succeeded bool
	var errs, other []string
	for _, line := range strings.Split(out.stdout, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var ev copilotEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Type == "" {
			other = append(other, line)
			continue
		}
		switch ev.Type {
		case "assistant.message":
			answer = ev.Data.Content
		case "session.error":
			errs = append(errs, ev.Data.Message)
		case "result":
			succeeded = ev.ExitCode != nil && *ev.ExitCode == 0
		}
	}
	decoded := output{exitCode: out.exitCode, state: out.state}
	if succeeded && len(errs) == 0 {
		decoded.stdout = answer
	}
	decoded.stderr = strings.TrimSpace(strings.Join(append(append(errs, other...), strings.TrimSpace(out.stderr)), "\n"))
	return decoded
}

// copilotLimitPattern matches Copilot's limits in BYOK mode, where a 429
// is an API error like any other once the retries ran out (`Last error:
// 429 The usage limit has been reached`, `Last error: 429 Rate limit
// reached for requests`), and the words of GitHub's own limits as its code
// has them (`You've been rate limited on the current model`). None names
// a reset time.
var copilotLimitPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\blast error: 429\b|\bbeen rate limited\b|\brate limit reached\b|\busage limit has been reached\b|\bquota exceeded\b`)
})

// findCopilotLimit looks for a usage or rate limit in Copilot's errors.
// The newest line wins, as on a screen.
func findCopilotLimit(text string, _ time.Time) (respawn.UsageLimitError, bool) {
	line, ok := newestLine(text, copilotLimitPattern().MatchString)
	return respawn.UsageLimitError{Line: line}, ok
}
