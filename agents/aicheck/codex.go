package aicheck

import (
	"encoding/json"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

var codexSpec = cliSpec{
	exe:        "codex",
	product:    "the Codex CLI",
	pathKey:    "checks.codex_path",
	command:    "codex exec",
	args:       codexArgs,
	env:        codexEnv,
	decode:     decodeCodex,
	findLimit:  findCodexLimit,
	idlePrompt: codexIdlePrompt,
	planPrompt: codexPlanPrompt,
}

// codexArgs are the check's arguments:
//   - --json: the answer and the errors come as separate events on stdout.
//     The plain output echoes the prompt, pane text and all, on stderr,
//     where a limit shown in the pane would pass for the check's own, and
//     --output-last-message gives the answer but not the error.
//   - --ephemeral: no session file per check in $CODEX_HOME/sessions.
//   - --skip-git-repo-check: the check's directory is not a repository.
//   - a read-only sandbox and no approvals: a reply that runs a command
//     can change nothing, and nothing waits for a person. exec asks for no
//     approval in 0.171.0 whatever config.toml says; the flag keeps it so.
//   - "-": the prompt is read from stdin.
//
// Claude's default check model means nothing to Codex: with it, Codex's
// own configured model answers.
func codexArgs(model string) []string {
	args := []string{"exec", "--json", "--ephemeral", "--skip-git-repo-check",
		"--sandbox", "read-only", "--config", `approval_policy="never"`}
	if model != respawn.DefaultCheckModel {
		args = append(args, "--model", model)
	}
	return append(args, "-")
}

// codexEnv makes Codex print times in UTC: a usage limit's reset time
// carries no zone, and this way none has to be guessed.
func codexEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); name != "TZ" {
			out = append(out, kv)
		}
	}
	return append(out, "TZ=UTC")
}

// codexEvent is the part of a `codex exec --json` event a check reads.
type codexEvent struct {
	Type string `json:"type"`
	Item struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Message string `json:"message"` // of "error"
	Error   struct {
		Message string `json:"message"`
	} `json:"error"` // of "turn.failed"
}

// decodeCodex reads the JSONL events of `codex exec --json`. The answer is
// the last agent message of a completed turn: a turn that failed may have
// streamed part of one. The errors are the turn.failed messages, or else
// the error events' (retries say "Reconnecting..."), ahead of anything
// codex wrote to stderr; a line that is not an event is kept as an error
// too, so that it is quoted.
func decodeCodex(out output) output {
	var answer string
	var completed bool
	var failed, errs, other []string
	for _, line := range strings.Split(out.stdout, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var ev codexEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Type == "" {
			other = append(other, line)
			continue
		}
		switch ev.Type {
		case "item.completed":
			if ev.Item.Type == "agent_message" {
				answer = ev.Item.Text
			}
		case "turn.completed":
			completed = true
		case "turn.failed":
			failed = append(failed, ev.Error.Message)
		case "error":
			errs = append(errs, ev.Message)
		}
	}
	if len(failed) > 0 {
		errs = failed
	}
	decoded := output{exitCode: out.exitCode, state: out.state}
	if completed {
		decoded.stdout = answer
	}
	decoded.stderr = strings.Join(append(append(errs, other...), strings.TrimSpace(out.stderr)), "\n")
	decoded.stderr = strings.TrimSpace(decoded.stderr)
	return decoded
}
