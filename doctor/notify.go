package doctor

import (
	"fmt"
	"time"

	"github.com/codeman-dev/codeman/api"
)

// checkAnswer reports the subscription to the reply topic of
// [notify.answer], which brings back the phone's answers.
func checkAnswer(a *api.AnswerStatus) Check {
	const name = "notify answer"
	switch {
	case a.Problem != "":
		return Check{Name: name, Verdict: VerdictError, Message: "answering from the phone is off: " + a.Problem,
			Fix: "fix what it names; the daemon tries again when the config file changes"}
	case !a.Connected && a.Error != "":
		return Check{Name: name, Verdict: VerdictWarn,
			Message: fmt.Sprintf("not subscribed to %s since %s: %s; buttons pressed meanwhile count once it is back", a.Topic, a.Since.Local().Format(time.DateTime), a.Error),
			Fix:     "check the topic's URL and access_token in [notify.answer], and that the ntfy server is reachable"}
	case !a.Connected:
		return Check{Name: name, Verdict: VerdictNote, Message: "connecting to " + a.Topic}
	}
	msg := fmt.Sprintf("subscribed to %s since %s, %d messages read", a.Topic, a.Since.Local().Format(time.DateTime), a.Messages)
	if !a.LastTest.IsZero() {
		msg += fmt.Sprintf("; a test button's answer came back %s", a.LastTest.Local().Format(time.DateTime))
	}
	return Check{Name: name, Verdict: VerdictOK, Message: msg}
}

// checkNotify reports the notifications of panes that need a person: one
// line per channel, and what is wrong with the [notify] table.
func checkNotify(st api.NotifyStatus) []Check {
	var checks []Check
	if st.Problem != "" {
		checks = append(checks, Check{Name: "notify", Verdict: VerdictWarn, Message: st.Problem,
			Fix: "codeman config check names the key; fix it (the daemon reloads the file)"})
	}
	configured := 0
	for _, ch := range st.Channels {
		name := "notify " + ch.Name
		switch {
		case ch.Unavailable != "":
			checks = append(checks, Check{Name: name, Verdict: VerdictWarn, Message: "cannot deliver: " + ch.Unavailable,
				Fix: "remove it from [notify], or run the daemon where it can (a desktop session for desktop = true)"})
		case ch.LastError != "" && !ch.LastSent.After(ch.LastErrorAt):
			checks = append(checks, Check{Name: name, Verdict: VerdictWarn,
				Message: fmt.Sprintf("the last message failed %s: %s (%d sent, %d failed)", ch.LastErrorAt.Local().Format(time.DateTime), ch.LastError, ch.Sent, ch.Failed),
				Fix:     "codeman notify test tries every channel and says what is wrong"})
		default:
			checks = append(checks, Check{Name: name, Verdict: VerdictOK, Message: fmt.Sprintf("%d sent, %d failed", ch.Sent, ch.Failed)})
		}
		if ch.Name != api.StatusLine {
			configured++
		}
	}
	if configured == 0 && st.Problem == "" && len(st.Channels) > 0 {
		checks = append(checks, Check{Name: "notify", Verdict: VerdictNote,
			Message: "only the status line says when a pane needs a person",
			Fix:     "to be told elsewhere too, set command, desktop or url in [notify] (README, Notifications)"})
	}
	if a := st.Answer; a != nil {
		checks = append(checks, checkAnswer(a))
	}
	if st.RateLimited > 0 || st.RateDelayed > 0 {
		checks = append(checks, Check{Name: "notify rate limit", Verdict: VerdictWarn,
			Message: fmt.Sprintf("%d messages dropped and %d first messages delayed by rate_limit_per_minute", st.RateLimited, st.RateDelayed),
			Fix:     "a pane keeps asking and answering; codeman log shows which"})
	}
	return checks
}
