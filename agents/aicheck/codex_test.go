package aicheck

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

func TestCodexArgs(t *testing.T) {
	common := []string{"exec", "--json", "--ephemeral", "--skip-git-repo-check", "--sandbox", "read-only", "--config", `approval_policy="never"`}
	if got, want := codexArgs("gpt-5.5"), append(slices.Clone(common), "--model", "gpt-5.5", "-"); !slices.Equal(got, want) {
		t.Errorf("codexArgs(gpt-5.5) = %q, want %q", got, want)
	}
	// Claude's default model leaves the choice to Codex's config.
	if got, want := codexArgs(respawn.DefaultCheckModel), append(slices.Clone(common), "-"); !slices.Equal(got, want) {
		t.Errorf("codexArgs(%s) = %q, want %q", respawn.DefaultCheckModel, got, want)
	}
}

func TestCodexEnv(t *testing.T) {
	got := codexEnv([]string{"HOME=/root", "TZ=Europe/Vienna", "PATH=/bin", "TZ=:/etc/localtime", "CODEMAN_CHECK=1"})
	want := []string{"HOME=/root", "PATH=/bin", "CODEMAN_CHECK=1", "TZ=UTC"}
	if !slices.Equal(got, want) {
		t.Errorf("codexEnv = %q, want %q", got, want)
	}
}

// Events as codex exec --json 0.171.0 printed them against the fake API.
const (
	codexStarted   = `{"type":"thread.started","thread_id":"01a2335a-6f04-7e20-85a3-60124a1fc135"}` + "\n" + `{"type":"turn.started"}` + "\n"
	codexCompleted = `{"type":"turn.completed","usage":{"input_tokens":9531,"cached_input_tokens":0,"output_tokens":7}}` + "\n"
)

func codexMessage(text string) string {
	return `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":` + strings.ReplaceAll(`"`+text+`"`, "\n", `\n`) + `}}` + "\n"
}

func codexFailure(msg string) string {
	return `{"type":"error","message":"` + msg + `"}` + "\n" + `{"type":"turn.failed","error":{"message":"` + msg + `"}}` + "\n"
}

func TestDecodeCodex(t *testing.T) {
	tests := []struct {
		name           string
		in             output
		stdout, stderr string
	}{
		{"Answer", output{stdout: codexStarted + codexMessage("IDLE\nThe prompt is empty.") + codexCompleted},
			"IDLE\nThe prompt is empty.", ""},
		{"LastMessageWins", output{stdout: codexStarted + codexMessage("Let me look.") + codexMessage("WORKING\nbusy") + codexCompleted},
			"WORKING\nbusy", ""},
		{"FailedTurnDropsPartialAnswer", output{exitCode: 1, stdout: codexStarted + codexMessage("IDL") +
			`{"type":"error","message":"Reconnecting... 1/1 (rate limit exceeded: slow down)"}` + "\n" + codexFailure("rate limit exceeded: slow down")},
			"", "rate limit exceeded: slow down"},
		{"ErrorEventsWithoutTurnFailed", output{exitCode: 1, stdout: codexStarted + `{"type":"error","message":"stream closed"}` + "\n"},
			"", "stream closed"},
		{"NotEventsAndStderr", output{exitCode: 1, stdout: "plain words\n", stderr: "Error loading configuration: bad key\n"},
			"", "plain words\nError loading configuration: bad key"},
		{"NoCompletedTurn", output{stdout: codexStarted + codexMessage("IDLE\nok")}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decodeCodex(tt.in)
			if got.stdout != tt.stdout || got.stderr != tt.stderr || got.exitCode != tt.in.exitCode {
				t.Errorf("decodeCodex = %+v, want stdout %q, stderr %q, exit %d", got, tt.stdout, tt.stderr, tt.in.exitCode)
			}
		})
	}
}

func TestFindCodexLimit(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 45, 0, 0, time.UTC)
	utc := func(year int, month time.Month, day, hour, minute int) time.Time {
		return time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
	}
	tests := []struct {
		name  string
		text  string
		found bool
		reset time.Time // zero when none
	}{
		{"Plus", "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 9:45 PM.", true, utc(2026, 12, 1, 21, 45)},
		{"Free", "You’ve hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at 4:45 AM.", true, utc(2026, 12, 2, 4, 45)},
		{"JustPassed", "You’ve hit your usage limit. Try again at 8:30 PM.", true, utc(2026, 12, 1, 20, 30)},
		{"Noon", "You’ve hit your usage limit. Try again at 12:05 PM.", true, utc(2026, 12, 2, 12, 5)},
		{"Dated", "You’ve hit your usage limit. To get more access now, send a request to your admin or try again at Dec 4th, 2026 3:45 PM.", true, utc(2026, 12, 4, 15, 45)},
		{"DatedNextYear", "You’ve hit your usage limit. Try again at Jan 1st, 2027 12:00 AM.", true, utc(2027, 1, 1, 0, 0)},
		{"BadDate", "You’ve hit your usage limit. Try again at Feb 30th, 2027 1:00 AM.", true, time.Time{}},
		{"BadClock", "You’ve hit your usage limit. Try again at 13:10 PM.", true, time.Time{}},
		{"NoTime", "You've hit your usage limit. Try again later.", true, time.Time{}},
		{"RateLimit429", "exceeded retry limit, last status: 429 Too Many Requests, request id: req_1", true, time.Time{}},
		{"Overloaded", "Selected model is at capacity. Please try a different model.", true, time.Time{}},
		{"RateLimitMidStream", "rate limit exceeded: slow down", true, time.Time{}},
		{"Quota", "Quota exceeded. Check your plan and billing details.", true, time.Time{}},
		{"ServerError", "We’re currently experiencing high demand, which may cause temporary errors.", false, time.Time{}},
		{"UnexpectedStatus", "unexpected status 404 Not Found: {}, url: http://127.0.0.1:1/v1/responses", false, time.Time{}},
		{"TryAgainWithoutLimit", "Reconnecting... try again at 9:45 PM", false, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := findCodexLimit("Reconnecting... 1/1\n"+tt.text, now)
			if found != tt.found {
				t.Fatalf("findCodexLimit(%q) found = %t, want %t", tt.text, found, tt.found)
			}
			if !found {
				return
			}
			if got.Line != tt.text {
				t.Errorf("Line = %q, want %q", got.Line, tt.text)
			}
			if !got.ResetAt.Equal(tt.reset) {
				t.Errorf("ResetAt = %s, want %s", got.ResetAt, tt.reset)
			}
		})
	}
}

// A Codex check maps its errors like claude's: a limit to a
// *respawn.UsageLimitError, anything else to an error naming codex exec.
func TestClassify_Codex(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 45, 0, 0, time.UTC)
	res, err := classify(&codexSpec, respawn.IdleCheck, decodeCodex(output{stdout: codexStarted + codexMessage("IDLE\nok") + codexCompleted}), now)
	if err != nil || res.Verdict != respawn.VerdictIdle || res.Reason != "ok" {
		t.Errorf("classify = %+v, %v; want IDLE ok", res, err)
	}
	_, err = classify(&codexSpec, respawn.IdleCheck, decodeCodex(output{exitCode: 1, state: "exit status 1",
		stdout: codexStarted + codexFailure("You’ve hit your usage limit. Try again at 9:45 PM.")}), now)
	var limit *respawn.UsageLimitError
	if !errors.As(err, &limit) || !limit.ResetAt.Equal(time.Date(2026, 12, 1, 21, 45, 0, 0, time.UTC)) {
		t.Errorf("classify error = %v, want a usage limit resetting at 21:45 UTC", err)
	}
	_, err = classify(&codexSpec, respawn.IdleCheck, decodeCodex(output{exitCode: 1, state: "exit status 1",
		stdout: codexStarted + codexFailure("We’re currently experiencing high demand, which may cause temporary errors.")}), now)
	if err == nil || errors.As(err, &limit) || err.Error() != `codex exec exit status 1: "We’re currently experiencing high demand, which may cause temporary errors."` {
		t.Errorf("classify error = %v, want the API error quoted", err)
	}
	_, err = classify(&codexSpec, respawn.IdleCheck, decodeCodex(output{stdout: codexStarted + codexMessage("maybe") + codexCompleted}), now)
	if err == nil || err.Error() != `codex exec answered without IDLE or WORKING: "maybe"` {
		t.Errorf("classify error = %v, want no verdict", err)
	}
}
