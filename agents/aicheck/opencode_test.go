package aicheck

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

func TestOpenCodeArgs(t *testing.T) {
	common := []string{"run", "--format", "json", "--pure", "--title", "codeman check"}
	if got, want := openCodeArgs("anthropic/claude-haiku-4-5"), append(slices.Clone(common), "--model", "anthropic/claude-haiku-4-5"); !slices.Equal(got, want) {
		t.Errorf("openCodeArgs(anthropic/claude-haiku-4-5) = %q, want %q", got, want)
	}
	// Claude's default model leaves the choice to the user's OpenCode config.
	if got := openCodeArgs(respawn.DefaultCheckModel); !slices.Equal(got, common) {
		t.Errorf("openCodeArgs(%s) = %q, want %q", respawn.DefaultCheckModel, got, common)
	}
	for _, a := range openCodeArgs("m") {
		if a == "--auto" || a == "--share" || a == "-c" || a == "--continue" || a == "--interactive" {
			t.Errorf("openCodeArgs has %s", a)
		}
	}
}

func TestOpenCodeEnv(t *testing.T) {
	got := openCodeEnv([]string{
		"HOME=/root", "OPENCODE=1", "OPENCODE_PID=42", "OPENCODE_CONFIG_CONTENT={}", "OPENCODE_PERMISSION={\"bash\":\"allow\"}",
		"OPENCODE_DB=/root/oc.db", "OPENCODE_DISABLE_AUTOUPDATE=0", "ANTHROPIC_API_KEY=k", "CODEMAN_CHECK=1",
	})
	want := []string{"HOME=/root", "OPENCODE_CONFIG_CONTENT={}", "ANTHROPIC_API_KEY=k", "CODEMAN_CHECK=1",
		`OPENCODE_PERMISSION={"*":"deny"}`, "OPENCODE_DB=:memory:", "OPENCODE_DISABLE_AUTOUPDATE=1"}
	if !slices.Equal(got, want) {
		t.Errorf("openCodeEnv = %q, want %q", got, want)
	}
}

// Events as opencode run --format json 1.18.33 printed them against the
// fake API, shortened.
func openCodeStep(text, reason string) string {
	s := `{"type":"step_start","timestamp":1796411387123,"sessionID":"ses_1","part":{"id":"prt_1","messageID":"msg_1","sessionID":"ses_1","type":"step-start"}}` + "\n"
	if text != "" {
		s += `{"type":"text","timestamp":1796411387125,"sessionID":"ses_1","part":{"id":"prt_2","type":"text","text":` +
			strings.ReplaceAll(`"`+text+`"`, "\n", `\n`) + `,"time":{"start":1796411387035,"end":1796411387060}}}` + "\n"
	}
	if reason == "tool-calls" {
		s += `{"type":"tool_use","timestamp":1796411412583,"sessionID":"ses_1","part":{"type":"tool","tool":"bash","callID":"toolu_fake_1","state":{"status":"error","input":{"command":"touch x"},"error":"Model tried to call unavailable tool 'invalid'. Available tools: ."}}}` + "\n"
	}
	return s + `{"type":"step_finish","timestamp":1796411387125,"sessionID":"ses_1","part":{"id":"prt_3","reason":"` + reason +
		`","type":"step-finish","tokens":{"total":7630,"input":7624,"output":6},"cost":0.022962}}` + "\n"
}

func openCodeErrorEvent(message string, status int) string {
	return `{"type":"error","timestamp":1796411416828,"sessionID":"ses_1","error":{"name":"APIError","data":{"message":"` + message +
		`","statusCode":` + strconv.Itoa(status) + `,"isRetryable":false,"responseBody":"{}","metadata":{"url":"http://127.0.0.1:18641/v1/messages"}}}}` + "\n"
}

func TestDecodeOpenCode(t *testing.T) {
	tests := []struct {
		name           string
		in             output
		stdout, stderr string
	}{
		{"Answer", output{stdout: openCodeStep("IDLE\nThe turn is done.", "stop")}, "IDLE\nThe turn is done.", ""},
		// A step that calls a tool has its text; the last step answers.
		{"LastStepWins", output{stdout: openCodeStep("Let me look.", "tool-calls") + openCodeStep("WORKING\nNot sure.", "stop")},
			"WORKING\nNot sure.", ""},
		{"StepEndingInToolCall", output{stdout: openCodeStep("Let me look.", "tool-calls")}, "", ""},
		{"AuthError", output{exitCode: 1, stdout: openCodeErrorEvent("invalid x-api-key (fake)", 401)}, "", "invalid x-api-key (fake) (HTTP 401)"},
		{"RateLimit", output{exitCode: 1, stdout: openCodeErrorEvent("Number of request tokens has exceeded your per-minute rate limit (fake)", 429)},
			"", "Number of request tokens has exceeded your per-minute rate limit (fake) (HTTP 429)"},
		{"ErrorAfterText", output{exitCode: 1, stdout: openCodeStep("IDL", "stop") + `{"type":"error","error":{"name":"UnknownError","data":{}}}` + "\n"},
			"", "UnknownError"},
		{"NotEventsAndStderr", output{exitCode: 1, stdout: "plain words\n", stderr: "Error: Model not found: anthropic/nope\n"},
			"", "plain words\nError: Model not found: anthropic/nope"},
		{"Nothing", output{}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decodeOpenCode(tt.in)
			if got.stdout != tt.stdout || got.stderr != tt.stderr || got.exitCode != tt.in.exitCode {
				t.Errorf("decodeOpenCode = %+v, want stdout %q, stderr %q, exit %d", got, tt.stdout, tt.stderr, tt.in.exitCode)
			}
		})
	}
}

func TestFindOpenCodeLimit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		text  string
		found bool
	}{
		{"Status429", "Number of request tokens has exceeded your per-minute rate limit (fake) (HTTP 429)", true},
		{"Overloaded529", "Overloaded (HTTP 529)", true},
		{"UsageLimitWords", "You have reached your usage limit for this period", true},
		{"RateLimitExceeded", "Rate limit exceeded, please slow down", true},
		{"ServerError", "Internal server error (fake) (HTTP 500)", false},
		{"Auth", "invalid x-api-key (fake) (HTTP 401)", false},
		{"Status4290", "odd (HTTP 4290)", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, found := findOpenCodeLimit("an earlier line\n"+tt.text, time.Now())
			if found != tt.found {
				t.Fatalf("findOpenCodeLimit(%q) found = %t, want %t", tt.text, found, tt.found)
			}
			if found && (got.Line != tt.text || !got.ResetAt.IsZero()) {
				t.Errorf("limit = %+v, want the line %q and no reset time", got, tt.text)
			}
		})
	}
}

// An OpenCode check maps its errors like the others: a limit to a
// *respawn.UsageLimitError, anything else to an error naming opencode run
// and quoting OpenCode's message.
func TestClassify_OpenCode(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 45, 0, 0, time.UTC)
	res, err := classify(&openCodeSpec, respawn.IdleCheck, decodeOpenCode(output{stdout: openCodeStep("IDLE\nok", "stop")}), now)
	if err != nil || res.Verdict != respawn.VerdictIdle || res.Reason != "ok" {
		t.Errorf("classify = %+v, %v; want IDLE ok", res, err)
	}
	res, err = classify(&openCodeSpec, respawn.PlanCheck, decodeOpenCode(output{stdout: openCodeStep("NOT_PLAN_MODE\na permission prompt", "stop")}), now)
	if err != nil || res.Verdict != respawn.VerdictNotPlanMode {
		t.Errorf("classify plan = %+v, %v; want NOT_PLAN_MODE", res, err)
	}
	_, err = classify(&openCodeSpec, respawn.IdleCheck, decodeOpenCode(output{exitCode: 1, state: "exit status 1",
		stdout: openCodeErrorEvent("Number of request tokens has exceeded your per-minute rate limit (fake)", 429)}), now)
	var limit *respawn.UsageLimitError
	if !errors.As(err, &limit) || !errors.Is(err, respawn.ErrUsageLimit) || !strings.HasSuffix(limit.Line, "(HTTP 429)") {
		t.Errorf("classify error = %v, want the usage limit", err)
	}
	_, err = classify(&openCodeSpec, respawn.IdleCheck, decodeOpenCode(output{exitCode: 1, state: "exit status 1",
		stdout: openCodeErrorEvent("invalid x-api-key (fake)", 401)}), now)
	if err == nil || errors.As(err, &limit) || err.Error() != `opencode run exit status 1: "invalid x-api-key (fake) (HTTP 401)"` {
		t.Errorf("classify error = %v, want the authentication error quoted", err)
	}
	_, err = classify(&openCodeSpec, respawn.IdleCheck, decodeOpenCode(output{stdout: openCodeStep("maybe", "stop")}), now)
	if err == nil || err.Error() != `opencode run answered without IDLE or WORKING: "maybe"` {
		t.Errorf("classify error = %v, want no verdict", err)
	}
}
