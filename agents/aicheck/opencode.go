package aicheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

var openCodeSpec = cliSpec{
	exe:        "opencode",
	product:    "OpenCode",
	pathKey:    "checks.opencode_path",
	command:    "opencode run",
	args:       openCodeArgs,
	env:        openCodeEnv,
	decode:     decodeOpenCode,
	findLimit:  findOpenCodeLimit,
	idlePrompt: openCodeIdlePrompt,
	planPrompt: openCodePlanPrompt,
}

// openCodeTitle is the title of a check's session. Given a title, `opencode
// run` makes no title request to the model.
const openCodeTitle = "codeman check"

// openCodeArgs are the check's arguments; the prompt comes on stdin, which
// `opencode run` reads when it is not a terminal and no message is given.
//   - --format json: the answer and the error come as JSON events on
//     stdout; the default format draws the reply for a terminal.
//   - --pure: no external plugins, among them codeman's own, which would
//     take the check's events for a pane's.
//   - --title: no title request, one model call per check.
//
// Claude's default check model means nothing to OpenCode: with it, the
// user's configured model answers. Any other is passed as --model, in
// OpenCode's provider/model form.
func openCodeArgs(model string) []string {
	args := []string{"run", "--format", "json", "--pure", "--title", openCodeTitle}
	if model != respawn.DefaultCheckModel {
		args = append(args, "--model", model)
	}
	return args
}

// openCodeDenyAll is the permission config of a check: every tool denied.
// OpenCode then offers the model no tool, and refuses a call of one it did
// not offer; a rule of the user's that allows a tool does not win over it.
const openCodeDenyAll = `{"*":"deny"}`

// openCodeSessionVars are what a running OpenCode puts in the environment
// of the commands it runs, which a daemon started from one inherits, and
// what the check sets itself.
var openCodeSessionVars = map[string]bool{
	"OPENCODE":            true,
	"OPENCODE_PID":        true,
	"OPENCODE_PURE":       true,
	"OPENCODE_CLIENT":     true,
	"OPENCODE_TERMINAL":   true,
	"OPENCODE_PERMISSION": true,
	"OPENCODE_DB":         true,
}

// openCodeEnv denies every tool (OPENCODE_PERMISSION, merged over the
// user's permission config), keeps the check's session out of the user's
// session list (OPENCODE_DB in memory) and turns off the update check.
// The user's config (OPENCODE_CONFIG*, ~/.config/opencode) and credentials
// stay.
func openCodeEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !openCodeSessionVars[name] && name != "OPENCODE_DISABLE_AUTOUPDATE" {
			out = append(out, kv)
		}
	}
	return append(out, "OPENCODE_PERMISSION="+openCodeDenyAll, "OPENCODE_DB=:memory:", "OPENCODE_DISABLE_AUTOUPDATE=1")
}

// openCodeEvent is the part of a JSONL event of `opencode run --format
// json` a check reads: "step_start", "text", "tool_use", "step_finish",
// "error".
type openCodeEvent struct {
	Type string `json:"type"`
	Part struct {
		Text   string `json:"text"`   // of text
		Reason string `json:"reason"` // of step_finish: "stop", "tool-calls"
	} `json:"part"`
	Error *struct {
		Name string `json:"name"` // "APIError", "ProviderAuthError", …
		Data struct {
			Message    string `json:"message"`
			StatusCode int    `json:"statusCode"`
		} `json:"data"`
	} `json:"error"`
}

// decodeOpenCode reads the JSONL events of `opencode run --format json`.
// The answer is the last text of the last step, when that step finished
// with reason "stop": a step that ends in a tool call has text of its own.
// The errors are the error events' messages, with the HTTP status of an
// API error (`invalid x-api-key (HTTP 401)`), ahead of lines that are not
// events and of stderr.
func decodeOpenCode(out output) output {
	var answer, text string
	var done bool
	var errs, other []string
	for _, line := range strings.Split(out.stdout, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var ev openCodeEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Type == "" {
			other = append(other, line)
			continue
		}
		switch ev.Type {
		case "step_start":
			text, done = "", false
		case "text":
			text = ev.Part.Text
		case "step_finish":
			answer, done = text, ev.Part.Reason == "stop"
		case "error":
			errs = append(errs, openCodeError(ev))
		}
	}
	decoded := output{exitCode: out.exitCode, state: out.state}
	if done && len(errs) == 0 {
		decoded.stdout = answer
	}
	decoded.stderr = strings.TrimSpace(strings.Join(append(append(errs, other...), strings.TrimSpace(out.stderr)), "\n"))
	return decoded
}

// openCodeError is the line an error event becomes.
func openCodeError(ev openCodeEvent) string {
	if ev.Error == nil {
		return "error"
	}
	msg := ev.Error.Data.Message
	if msg == "" {
		msg = ev.Error.Name
	}
	if ev.Error.Data.StatusCode != 0 {
		msg = fmt.Sprintf("%s (HTTP %d)", msg, ev.Error.Data.StatusCode)
	}
	return msg
}

// openCodeLimitPattern matches the limits of OpenCode's providers: an API
// error with status 429 (rate or usage limit) or 529 (overloaded), and the
// words of limits a provider reports with another status. None names a
// reset time.
var openCodeLimitPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\(HTTP (?:429|529)\)$|\brate limit(?:ed| reached| exceeded)\b|\busage limit\b|\bquota exceeded\b|\boverloaded\b`)
})

// findOpenCodeLimit looks for a usage or rate limit in OpenCode's errors.
// The newest line wins, as on a screen.
func findOpenCodeLimit(text string, _ time.Time) (respawn.UsageLimitError, bool) {
	line, ok := newestLine(text, openCodeLimitPattern().MatchString)
	return respawn.UsageLimitError{Line: line}, ok
}
