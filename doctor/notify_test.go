package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/notify"
)

// Doctor says which notification channel cannot deliver or last failed,
// and suggests channels when only the status line is told.
func TestCheckNotify(t *testing.T) {
	at := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	line := func(cs []Check, name string) Check {
		for _, c := range cs {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no %q check in %+v", name, cs)
		return Check{}
	}
	cs := checkNotify(api.NotifyStatus{Channels: []notify.ChannelStatus{
		{Name: "desktop", Unavailable: "no D-Bus session bus"},
		{Name: "url https://ntfy.sh/…", Sent: 2, Failed: 1, LastSent: at, LastError: "503 Service Unavailable", LastErrorAt: at.Add(time.Minute)},
		{Name: "status line", Sent: 3},
	}, RateLimited: 4})
	if c := line(cs, "notify desktop"); c.Verdict != VerdictWarn || !strings.Contains(c.Message, "no D-Bus session bus") {
		t.Errorf("desktop: %+v", c)
	}
	if c := line(cs, "notify url https://ntfy.sh/…"); c.Verdict != VerdictWarn || !strings.Contains(c.Message, "503") || !strings.Contains(c.Fix, "codeman notify test") {
		t.Errorf("url: %+v", c)
	}
	if c := line(cs, "notify status line"); c.Verdict != VerdictOK {
		t.Errorf("status line: %+v", c)
	}
	if c := line(cs, "notify rate limit"); !strings.Contains(c.Message, "4 messages dropped and 0 first messages delayed") {
		t.Errorf("rate limit: %+v", c)
	}
	// First messages that only waited still say a pane keeps asking.
	cs = checkNotify(api.NotifyStatus{Channels: []notify.ChannelStatus{{Name: "status line"}}, RateDelayed: 2})
	if c := line(cs, "notify rate limit"); c.Verdict != VerdictWarn || !strings.Contains(c.Message, "2 first messages delayed") {
		t.Errorf("rate delayed: %+v", c)
	}

	cs = checkNotify(api.NotifyStatus{Channels: []notify.ChannelStatus{{Name: "status line"}}})
	if c := line(cs, "notify"); c.Verdict != VerdictNote || !strings.Contains(c.Fix, "[notify]") {
		t.Errorf("status line alone: %+v", c)
	}
	cs = checkNotify(api.NotifyStatus{Problem: "notification channels not built: url must name a host", Channels: []notify.ChannelStatus{{Name: "status line"}}})
	if c := line(cs, "notify"); c.Verdict != VerdictWarn || !strings.Contains(c.Message, "must name a host") {
		t.Errorf("problem: %+v", c)
	}
}

// Doctor says whether the phone's answers come back: subscribed, lost
// with why, or off with what to fix.
func TestCheckAnswer(t *testing.T) {
	at := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		st      api.AnswerStatus
		verdict Verdict
		want    string
	}{
		{api.AnswerStatus{Topic: "https://ntfy.sh/…", Connected: true, Since: at, Messages: 3, LastTest: at}, VerdictOK, "3 messages read; a test button's answer came back"},
		{api.AnswerStatus{Topic: "https://ntfy.sh/…", Since: at, Error: "the server answered 401 Unauthorized"}, VerdictWarn, "401 Unauthorized"},
		{api.AnswerStatus{Topic: "https://ntfy.sh/…", Problem: "answer key /s/answer.key may be read by others"}, VerdictError, "answering from the phone is off"},
		{api.AnswerStatus{Topic: "https://ntfy.sh/…"}, VerdictNote, "connecting"},
	} {
		c := checkAnswer(&tc.st)
		if c.Name != "notify answer" || c.Verdict != tc.verdict || !strings.Contains(c.Message, tc.want) {
			t.Errorf("checkAnswer(%+v) = %+v, want %s saying %q", tc.st, c, tc.verdict, tc.want)
		}
	}
	if cs := checkNotify(api.NotifyStatus{}); len(cs) != 0 {
		t.Errorf("without [notify.answer]: %+v", cs)
	}
}
