package simclaude

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// The screens below are compared with real Claude Code 2.1.328 captures
// (200x50, agents/claude/testdata/screens) row by row.

func TestRender_AfterClearMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(5 * time.Second)
	s.submit("/clear")
	sameRows(t, "after /clear", s.screen(), capture(t, "38-after-clear"))
}

func TestRender_IdleMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(startNoticeFor)
	got, want := s.screen(), capture(t, "12-idle-manual-mode-clean")
	want[45] = "" // the capture has tmux's focus-events hint there
	sameRows(t, "idle", got, want)
}

func TestRender_EffortNoticeAfterStart(t *testing.T) {
	s := newSim(t, nil)
	if got := s.screen()[45]; got != rightAlignPlain("◐ medium · /effort", 200) {
		t.Errorf("row 45 right after start = %q", got)
	}
	s.at(startNoticeFor)
	if got := s.screen()[45]; got != "" {
		t.Errorf("row 45 after the notice = %q", got)
	}
}

func rightAlignPlain(s string, width int) string {
	return plainRows([]string{rightAlign("", s, width)})[0]
}

var spinnerRow = regexp.MustCompile(`^[·✢*✶✻✽] [A-Z][a-z]+… \((\d+m )?\d+s · ↓ \d+(\.\d+k)? tokens\)$`)

func TestRender_WorkingMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(5 * time.Second)
	s.submit("slow70 please")
	s.after(time.Second)
	got, want := s.screen(), capture(t, "16-working-spinner-5s")
	if !spinnerRow.MatchString(got[43]) {
		t.Errorf("spinner row = %q", got[43])
	}
	if !regexp.MustCompile(`^  ⎿ \x{a0}Tip: `).MatchString(got[44]) {
		t.Errorf("tip row = %q", got[44])
	}
	sameRows(t, "prompt box while busy", got[45:], want[45:])
	if got[6] != "❯ slow70 please" {
		t.Errorf("prompt echo = %q", got[6])
	}
}

func TestRender_SpinnerAnimatesEveryFrame(t *testing.T) {
	s := newSim(t, nil)
	s.submit("hello")
	seen := map[string]bool{}
	for i := range 12 {
		s.at(time.Duration(i) * spinnerFrame)
		seen[string([]rune(s.screen()[43])[0])] = true
	}
	if len(seen) < 5 {
		t.Errorf("spinner showed %d glyphs over 12 frames, want the whole cycle", len(seen))
	}
}

func TestRender_StreamingHidesSpinner(t *testing.T) {
	s := newSim(t, nil)
	s.submit("hello")
	s.at(3*time.Second + 10*time.Millisecond) // the first reply line is out
	rows := s.screen()
	if find(rows, "● I checked the working tree") == "" {
		t.Fatalf("no reply line:\n%s", joinPlain(rows))
	}
	for _, r := range rows {
		if spinnerRow.MatchString(r) {
			t.Errorf("spinner row while text streams: %q", r)
		}
	}
	if rows[49] != "  ⏸ manual mode on · esc to interrupt" {
		t.Errorf("footer while streaming = %q", rows[49])
	}
}

func TestRender_QueuedMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(5 * time.Second)
	s.submit("slow20 please")
	s.after(time.Second)
	s.submit("queued followup")
	got, want := s.screen(), capture(t, "62-queued-message-while-busy")
	sameRows(t, "queued rows", got[7:10], want[24:27])
	sameRows(t, "prompt box", got[45:], want[45:])
}

func TestRender_InterruptMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(5 * time.Second)
	s.submit("slow20 please")
	s.after(time.Second)
	s.submit("queued followup")
	s.key(keyEscape)
	got, want := s.screen(), capture(t, "63-after-esc-interrupt")
	sameRows(t, "interrupted turn", got[6:9], want[23:26])
	if !spinnerRow.MatchString(got[43]) {
		t.Errorf("the queued prompt does not run at once: row 43 = %q", got[43])
	}
}

func TestRender_APIErrorMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(5 * time.Second)
	s.submit("err529 test error")
	s.after(3 * time.Second)
	got, want := s.screen(), capture(t, "47-err529-final-max-retries-1")
	if got[8] != want[8] {
		t.Errorf("error row:\n got %q\nwant %q", got[8], want[8])
	}
	if got[47] != want[47] {
		t.Errorf("input row:\n got %q\nwant %q", got[47], want[47])
	}
	if find(got, "✻ ") != "" {
		t.Errorf("completion line after an API error")
	}
}

func TestRender_UsageLimitMatchesCapture(t *testing.T) {
	s := newSim(t, nil)
	s.at(3*time.Hour + 16*time.Minute) // 22:03, so the limit resets at 10:06pm
	s.submit("usage limit please")
	s.after(2 * time.Second)
	got, want := s.screen(), capture(t, "55-oauth-usage-limit")
	sameRows(t, "limit lines", got[7:10], want[7:10])
	sameRows(t, "prompt box and notice", got[43:49], want[43:49])
}

func TestRender_DialogsMatchCaptures(t *testing.T) {
	for _, tc := range []struct {
		prompt, capture string
		from, to        int // rows of the capture the dialog occupies
	}{
		{"permission please", "14-bash-permission-prompt", 26, 42},
		{"question please", "21-askuserquestion", 34, 50},
		{"plan please", "32b-plan-approval-prompt-full", 2, 50},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			s := newSim(t, nil)
			s.submit(tc.prompt)
			s.after(3 * time.Second)
			if s.m.dialog == nil {
				t.Fatal("no dialog open")
			}
			got := plainRows(s.m.dialogRows(200, 50))
			sameRows(t, "dialog", got, capture(t, tc.capture)[tc.from:tc.to])
		})
	}
}

func TestRender_NarrowScreenWraps(t *testing.T) {
	s := newSim(t, nil)
	s.submit("error")
	s.after(3 * time.Second)
	rows := plainRows(s.m.render(s.now, 60, 20))
	if len(rows) != 20 {
		t.Fatalf("%d rows, want 20", len(rows))
	}
	for i, r := range rows {
		if w := len([]rune(r)); w > 60 {
			t.Errorf("row %d is %d wide", i, w)
		}
	}
	if rows[16] != strings.Repeat("─", 60) {
		t.Errorf("box top on a 60x20 screen = %q", rows[16])
	}
	if find(rows, "  issue, usually temporary") == "" {
		t.Errorf("the error line does not wrap under its bullet:\n%s", joinPlain(rows))
	}
}
