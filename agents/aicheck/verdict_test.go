package aicheck

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

func TestParseVerdict(t *testing.T) {
	long := strings.Repeat("r", 400)
	tests := []struct {
		name   string
		kind   respawn.CheckKind
		stdout string
		want   respawn.Verdict // "" for no verdict
		reason string
	}{
		{"Plain", respawn.IdleCheck, "IDLE\nThe prompt is empty.\n", respawn.VerdictIdle, "The prompt is empty."},
		{"Lowercase", respawn.IdleCheck, "idle\nDone.", respawn.VerdictIdle, "Done."},
		{"NoReason", respawn.IdleCheck, "WORKING", respawn.VerdictWorking, ""},
		{"LeadingBlankLines", respawn.IdleCheck, "\n  \nWORKING - spinner visible\n", respawn.VerdictWorking, "spinner visible"},
		{"Bold", respawn.IdleCheck, "**IDLE**\n\nThe prompt is empty.", respawn.VerdictIdle, "The prompt is empty."},
		{"BoldInline", respawn.IdleCheck, "**idle** — completion line shown", respawn.VerdictIdle, "completion line shown"},
		{"Colon", respawn.IdleCheck, "IDLE: finished", respawn.VerdictIdle, "finished"},
		{"Period", respawn.IdleCheck, "IDLE.", respawn.VerdictIdle, ""},
		{"TabSeparated", respawn.IdleCheck, "WORKING\tfooter busy", respawn.VerdictWorking, "footer busy"},
		{"CodeFence", respawn.IdleCheck, "```\nIDLE\n```\n", respawn.VerdictIdle, ""},
		{"Backticks", respawn.PlanCheck, "`NOT_PLAN_MODE`\nA question picker.", respawn.VerdictNotPlanMode, "A question picker."},
		{"PlanMode", respawn.PlanCheck, "plan_mode\nmenu open", respawn.VerdictPlanMode, "menu open"},
		{"LongReason", respawn.IdleCheck, "IDLE\n" + long, respawn.VerdictIdle, strings.Repeat("r", maxReason) + "…"},
		{"Prefix", respawn.IdleCheck, "IDLEX\nreason", "", ""},
		{"Sentence", respawn.IdleCheck, "Verdict: IDLE", "", ""},
		{"Thinking", respawn.IdleCheck, "Let me look.\nIDLE", "", ""},
		{"Spaced", respawn.PlanCheck, "NOT PLAN MODE", "", ""},
		{"OtherKind", respawn.IdleCheck, "PLAN_MODE\nmenu", "", ""},
		{"OtherKindPlan", respawn.PlanCheck, "WORKING", "", ""},
		{"Empty", respawn.IdleCheck, "", "", ""},
		{"Blank", respawn.IdleCheck, "\n \n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, ok := parseVerdict(tt.kind, tt.stdout)
			if ok != (tt.want != "") || res.Verdict != tt.want || res.Reason != tt.reason {
				t.Errorf("parseVerdict(%q) = %s %q %t, want %s %q", tt.stdout, res.Verdict, res.Reason, ok, tt.want, tt.reason)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	now := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		out     output
		want    respawn.Verdict
		limit   bool   // a *respawn.UsageLimitError
		errText string // in the error
	}{
		{"Verdict", output{stdout: "IDLE\nok"}, respawn.VerdictIdle, false, ""},
		{"VerdictQuotingALimit", output{stdout: "IDLE\nThe pane says You've hit your 5-hour limit · resets 10:06pm (UTC)"}, respawn.VerdictIdle, false, ""},
		{"VerdictWithStderr", output{stdout: "WORKING\nbusy", stderr: "warning: slow"}, respawn.VerdictWorking, false, ""},
		{"VerdictButFailed", output{stdout: "IDLE\nok", exitCode: 1, state: "exit status 1"}, "", false, `exit status 1: "IDLE\nok"`},
		{"LimitOnStderr", output{stdout: "garbage", stderr: "Claude AI usage limit reached|1767225600", exitCode: 1, state: "exit status 1"}, "", true, ""},
		{"LimitExitZero", output{stdout: "You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)"}, "", true, ""},
		{"Killed", output{exitCode: -1, state: "signal: killed"}, "", false, `claude -p signal: killed: ""`},
		{"StderrFirst", output{stdout: "out", stderr: "err", exitCode: 2, state: "exit status 2"}, "", false, `exit status 2: "err"`},
		{"StderrOnly", output{stderr: "oops"}, "", false, `printed only to stderr: "oops"`},
		{"Nothing", output{stdout: " \n"}, "", false, "printed nothing"},
		{"Garbage", output{stdout: "maybe"}, "", false, `answered without IDLE or WORKING: "maybe"`},
		{"LongGarbage", output{stdout: strings.Repeat("x", 1000)}, "", false, strings.Repeat("x", excerptLen) + "…\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := classify(&claudeSpec, respawn.IdleCheck, tt.out, now)
			var limit *respawn.UsageLimitError
			switch {
			case tt.want != "":
				if err != nil || res.Verdict != tt.want {
					t.Errorf("classify = %+v, %v; want %s", res, err, tt.want)
				}
			case tt.limit:
				if !errors.As(err, &limit) || limit.ResetAt.IsZero() {
					t.Errorf("classify error = %v, want a usage limit with a reset time", err)
				}
			default:
				if err == nil || errors.As(err, &limit) || !strings.Contains(err.Error(), tt.errText) {
					t.Errorf("classify = %+v, %v; want an error containing %q", res, err, tt.errText)
				}
			}
		})
	}
}
