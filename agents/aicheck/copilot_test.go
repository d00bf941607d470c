package aicheck

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

func TestCopilotArgs(t *testing.T) {
	common := []string{"--output-format", "json", "--available-tools=codeman-check-no-tools", "--deny-tool=shell", "--deny-tool=write",
		"--disable-builtin-mcps", "--no-ask-user", "--no-custom-instructions", "--no-auto-update"}
	if got, want := copilotArgs("gpt-5.5"), append(slices.Clone(common), "--model", "gpt-5.5"); !slices.Equal(got, want) {
		t.Errorf("copilotArgs(gpt-5.5) = %q, want %q", got, want)
	}
	// Claude's default model leaves the choice to the user's Copilot setup.
	if got := copilotArgs(respawn.DefaultCheckModel); !slices.Equal(got, common) {
		t.Errorf("copilotArgs(%s) = %q, want %q", respawn.DefaultCheckModel, got, common)
	}
	// Neither -p nor -s: the prompt comes on stdin, and -s hides errors.
	for _, a := range copilotArgs("gpt-5.5") {
		if a == "-p" || a == "-s" || a == "--allow-all-tools" || a == "--allow-all" || a == "--yolo" {
			t.Errorf("copilotArgs has %s", a)
		}
	}
}

func TestCopilotEnv(t *testing.T) {
	got := copilotEnv([]string{
		"HOME=/root", "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:1/v1", "COPILOT_CLI=1", "COPILOT_LOADER_PID=42",
		"COPILOT_HOOK_DIR=/root/.copilot/hooks", "COPILOT_PROJECT_DIR=/src", "COPILOT_HOME=/root/.copilot",
		"COPILOT_MODEL=gpt-5.5", "CODEMAN_CHECK=1",
	})
	want := []string{"HOME=/root", "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:1/v1", "COPILOT_HOME=/root/.copilot",
		"COPILOT_MODEL=gpt-5.5", "CODEMAN_CHECK=1"}
	if !slices.Equal(got, want) {
		t.Errorf("copilotEnv = %q, want %q", got, want)
	}
}

// Events as copilot --output-format json 1.0.102 printed them against the
// fake API, shortened to the fields a check reads and a few others.
const (
	copilotStarted = `{"type":"session.info","data":{"infoType":"configuration","message":"Unknown tool name in the tool allowlist: \"codeman-check-no-tools\""},"ephemeral":true}` + "\n" +
		`{"type":"user.message","data":{"content":"TERMINAL CAPTURE\n","transformedContent":"<current_datetime>2026-12-04T18:36:46.901+00:00</current_datetime>\n\nTERMINAL CAPTURE"}}` + "\n" +
		`{"type":"assistant.turn_start","data":{"turnId":"0"}}` + "\n"
	copilotDone = `{"type":"assistant.turn_end","data":{"turnId":"0"}}` + "\n" + `{"type":"assistant.idle","data":{},"ephemeral":true}` + "\n" +
		`{"type":"result","timestamp":"2026-12-04T18:36:46.996Z","sessionId":"eb25ced4","exitCode":0,"usage":{"premiumRequests":0}}` + "\n"
	copilotFailed = `{"type":"assistant.turn_end","data":{"turnId":"0"}}` + "\n" +
		`{"type":"result","timestamp":"2026-12-04T18:36:46.996Z","sessionId":"eb25ced4","exitCode":1,"usage":{"premiumRequests":0}}` + "\n"
)

func copilotMessage(text string) string {
	return `{"type":"assistant.message_delta","data":{"deltaContent":"x"},"ephemeral":true}` + "\n" +
		`{"type":"assistant.message","data":{"messageId":"m1","content":` + strings.ReplaceAll(`"`+text+`"`, "\n", `\n`) + `,"toolRequests":[]}}` + "\n"
}

func copilotError(errorType, msg string) string {
	return `{"type":"session.error","data":{"errorType":"` + errorType + `","message":"` + strings.ReplaceAll(msg, "\n", `\n`) + `","statusCode":429}}` + "\n"
}

const (
	copilot429   = "Failed to get response from the AI model; retried 5 times (total retry wait time: 50.33 seconds) Last error: 429 The usage limit has been reached (fake)"
	copilot500   = "Failed to get response from the AI model; retried 5 times (total retry wait time: 16.78 seconds) Last error: 500 The server had an error while processing your request (fake)"
	copilotAuth  = "Authentication failed with provider at http://127.0.0.1:18555/v1 (HTTP 401).\n  Check your COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN."
	copilotRate  = "Failed to get response from the AI model; retried 5 times (total retry wait time: 61.50 seconds) Last error: 429 Rate limit reached for requests (fake)"
	copilotNoURL = "Offline mode requires a local model provider. Set COPILOT_PROVIDER_BASE_URL to configure one."
)

func TestDecodeCopilot(t *testing.T) {
	tests := []struct {
		name           string
		in             output
		stdout, stderr string
	}{
		{"Answer", output{stdout: copilotStarted + copilotMessage("IDLE\nThe box is empty.") + copilotDone},
			"IDLE\nThe box is empty.", ""},
		// A reply before a tool call is a message of its own.
		{"LastMessageWins", output{stdout: copilotStarted + copilotMessage("Let me look.") + copilotMessage("WORKING\nbusy") + copilotDone},
			"WORKING\nbusy", ""},
		{"FailedRunDropsAnswer", output{exitCode: 1, stdout: copilotStarted + copilotMessage("IDL") + copilotError("rate_limit", copilot429) + copilotFailed},
			"", copilot429},
		{"AuthError", output{exitCode: 1, stdout: copilotStarted + copilotError("authentication", copilotAuth) + copilotFailed},
			"", copilotAuth},
		{"ErrorThoughExitZero", output{stdout: copilotStarted + copilotMessage("IDLE\nok") + copilotError("query", copilot500) + copilotDone},
			"", copilot500},
		{"NotEventsAndStderr", output{exitCode: 1, stdout: "plain words\n", stderr: copilotNoURL + "\n"},
			"", "plain words\n" + copilotNoURL},
		{"NoResult", output{stdout: copilotStarted + copilotMessage("IDLE\nok")}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decodeCopilot(tt.in)
			if got.stdout != tt.stdout || got.stderr != tt.stderr || got.exitCode != tt.in.exitCode {
				t.Errorf("decodeCopilot = %+v, want stdout %q, stderr %q, exit %d", got, tt.stdout, tt.stderr, tt.in.exitCode)
			}
		})
	}
}

func TestFindCopilotLimit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		text  string
		found bool
	}{
		{"UsageLimit429", copilot429, true},
		{"RateLimit429", copilotRate, true},
		{"GitHubRateLimit", "You've been rate limited on the current model. Would you like to switch to auto mode to continue?", true},
		{"ServerError", copilot500, false},
		{"Auth", copilotAuth, false},
		{"StreamFailed", "Failed to get response from the AI model; retried 5 times (total retry wait time: 12.00 seconds) Last error: The stream broke (fake)", false},
		{"Status4290", "Failed to get response from the AI model; retried 5 times Last error: 4290 odd", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, found := findCopilotLimit("Request failed due to a transient API error. Retrying...\n"+tt.text, time.Now())
			if found != tt.found {
				t.Fatalf("findCopilotLimit(%q) found = %t, want %t", tt.text, found, tt.found)
			}
			if found && (got.Line != tt.text || !got.ResetAt.IsZero()) {
				t.Errorf("limit = %+v, want the line %q and no reset time", got, tt.text)
			}
		})
	}
}

// A Copilot check maps its errors like the others: a limit to a
// *respawn.UsageLimitError, anything else to an error naming copilot and
// quoting Copilot's message.
func TestClassify_Copilot(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 45, 0, 0, time.UTC)
	res, err := classify(&copilotSpec, respawn.IdleCheck, decodeCopilot(output{stdout: copilotStarted + copilotMessage("IDLE\nok") + copilotDone}), now)
	if err != nil || res.Verdict != respawn.VerdictIdle || res.Reason != "ok" {
		t.Errorf("classify = %+v, %v; want IDLE ok", res, err)
	}
	res, err = classify(&copilotSpec, respawn.PlanCheck, decodeCopilot(output{stdout: copilotStarted + copilotMessage("NOT_PLAN_MODE\na permission prompt") + copilotDone}), now)
	if err != nil || res.Verdict != respawn.VerdictNotPlanMode {
		t.Errorf("classify plan = %+v, %v; want NOT_PLAN_MODE", res, err)
	}
	_, err = classify(&copilotSpec, respawn.IdleCheck, decodeCopilot(output{exitCode: 1, state: "exit status 1",
		stdout: copilotStarted + copilotError("rate_limit", copilot429) + copilotFailed}), now)
	var limit *respawn.UsageLimitError
	if !errors.As(err, &limit) || !errors.Is(err, respawn.ErrUsageLimit) || limit.Line != copilot429 {
		t.Errorf("classify error = %v, want the usage limit", err)
	}
	_, err = classify(&copilotSpec, respawn.IdleCheck, decodeCopilot(output{exitCode: 1, state: "exit status 1",
		stdout: copilotStarted + copilotError("authentication", copilotAuth) + copilotFailed}), now)
	if err == nil || errors.As(err, &limit) || !strings.HasPrefix(err.Error(), `copilot exit status 1: "Authentication failed with provider at http://127.0.0.1:18555/v1 (HTTP 401).`) {
		t.Errorf("classify error = %v, want the authentication error quoted", err)
	}
	_, err = classify(&copilotSpec, respawn.IdleCheck, decodeCopilot(output{stdout: copilotStarted + copilotMessage("maybe") + copilotDone}), now)
	if err == nil || err.Error() != `copilot answered without IDLE or WORKING: "maybe"` {
		t.Errorf("classify error = %v, want no verdict", err)
	}
}
