package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/respawn"
)

// Notify is the [notify] table: where the notifications of panes that
// need a person go (the channels and the rate limit are the daemon's, one
// set for all panes), and when (the keys of NotifyPane, which a profile
// may override in [profile.NAME.notify]).
type Notify struct {
	// Command is an argv run for each message, without a shell, the
	// message as its last argument; empty: none.
	Command []string `toml:"command"`
	// Desktop shows desktop notifications. Default false.
	Desktop bool `toml:"desktop"`
	// URL is a webhook (ntfy topic URL or any other) that gets an HTTP
	// POST of each message; "": none.
	URL string `toml:"url"`
	// Format is the webhook's body: "text" (ntfy's) or "json". Default
	// "text".
	Format string `toml:"format"`
	// RateLimitPerMinute bounds the messages sent per minute, all panes
	// together, 1..600. Default 10.
	RateLimitPerMinute int `toml:"rate_limit_per_minute"`
	NotifyPane
	// Answer is [notify.answer]: answering a pane from the phone.
	Answer NotifyAnswer `toml:"answer"`
}

// NotifyAnswer is the [notify.answer] table: the buttons of a need's ntfy
// message, and the reply topic they post to, which the daemon follows.
type NotifyAnswer struct {
	// Topic is the reply topic's URL; "" (the default) leaves answering
	// from the phone off. It must differ from [notify] url's topic.
	Topic string `toml:"topic"`
	// AccessToken is an ntfy access token (tk_…), sent with the
	// subscription and with each button's post, for a topic that needs
	// one; "": none.
	AccessToken string `toml:"access_token"`
	// Kinds are the needs that may be answered from the phone: question,
	// permission, menu. Default question and permission.
	Kinds []string `toml:"kinds"`
	// TokenLifetime is how long a button counts, 1m..24h. Default 1h.
	TokenLifetime time.Duration `toml:"token_lifetime"`
}

// answerKinds are the needs a button may answer.
var answerKinds = []string{"question", "permission", "menu"}

// Limits of [notify.answer].
const (
	minTokenLifetime = time.Minute
	maxTokenLifetime = 24 * time.Hour
)

// problem returns the first invalid key of [notify.answer], in a
// [notify] whose url is webhook.
func (a NotifyAnswer) problem(webhook string) *keyProblem {
	if pr := firstProblem(urlProblem("answer.topic", a.Topic),
		durationProblem("answer.token_lifetime", a.TokenLifetime, minTokenLifetime, maxTokenLifetime)); pr != nil {
		return pr
	}
	for _, k := range a.Kinds {
		if !slices.Contains(answerKinds, k) {
			return &keyProblem{key: "answer.kinds", reason: fmt.Sprintf("must list kinds of %s, not %q", strings.Join(answerKinds, ", "), k)}
		}
	}
	if strings.ContainsFunc(a.AccessToken, func(r rune) bool { return r <= ' ' || r >= 0x7f }) {
		return &keyProblem{key: "answer.access_token", reason: "must be printable ASCII without spaces"}
	}
	switch {
	case a.Topic == "":
		return nil
	case webhook == "":
		return &keyProblem{key: "answer.topic", reason: "needs [notify] url, the ntfy topic whose messages carry the buttons"}
	case sameTopic(a.Topic, webhook):
		return &keyProblem{key: "answer.topic", reason: "must be a topic of its own, not [notify] url's: the daemon reads every message posted to it"}
	}
	return nil
}

// sameTopic reports two URLs of the same topic.
func sameTopic(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && strings.EqualFold(ua.Host, ub.Host) && strings.Trim(ua.Path, "/") == strings.Trim(ub.Path, "/")
}

// AnswerKinds are the needs [notify.answer] lets the phone answer.
func (a NotifyAnswer) AnswerKinds() []respawn.NeedKind {
	kinds := make([]respawn.NeedKind, len(a.Kinds))
	for i, k := range a.Kinds {
		kinds[i] = respawn.NeedKind(k)
	}
	return kinds
}

// NotifyPane holds the keys of [notify] that a profile may override, in
// [profile.NAME.notify]: when a pane's holds notify.
type NotifyPane struct {
	// Enabled false sends nothing for these panes, the tmux channel's
	// messages included; `codeman notify test` still tests the channels.
	// Default true.
	Enabled bool `toml:"enabled"`
	// NotifyAfter is how long a hold lasts before it notifies, 0..24h.
	// Default 30s.
	NotifyAfter time.Duration `toml:"notify_after"`
	// Renotify is how often a lasting hold notifies again: 0 (never) or
	// 1m..7d. Default 30m.
	Renotify time.Duration `toml:"renotify"`
	// NotifyResolved also tells when a hold that notified ends. Default
	// false.
	NotifyResolved bool `toml:"notify_resolved"`
	// NotifyBell lets the tmux channel ring the bell. Default true.
	NotifyBell bool `toml:"notify_bell"`
}

// profileTable is what a [profile.NAME] table holds: keys of [respawn]
// and a notify sub-table.
type profileTable struct {
	respawn.Config
	Notify NotifyPane `toml:"notify"`
}

// Limits of the [notify] keys.
const (
	maxNotifyAfter  = 24 * time.Hour
	minRenotify     = time.Minute
	maxRenotify     = 7 * 24 * time.Hour
	maxRateLimit    = 600
	maxCommandChars = 4096
)

// defaultNotify is [notify] when the file sets none of it.
func defaultNotify() Notify {
	p := notify.DefaultPolicy()
	return Notify{
		Format:             "text",
		RateLimitPerMinute: notify.DefaultRateLimit,
		NotifyPane: NotifyPane{Enabled: !p.Muted, NotifyAfter: p.After, Renotify: p.Renotify,
			NotifyResolved: p.Resolved, NotifyBell: p.Bell},
		Answer: NotifyAnswer{Kinds: []string{"question", "permission"}, TokenLifetime: time.Hour},
	}
}

// NotifyOptions returns the options of the daemon's notify.Notifier:
// the channels and rate limit of [notify], and its per-pane keys as the
// policy of panes without a profile. The caller adds its Clock, Log and
// extra channels.
func (f *File) NotifyOptions() notify.Options {
	n := f.Notify
	return notify.Options{
		Command:   n.Command,
		Desktop:   n.Desktop,
		URL:       n.URL,
		Format:    n.Format,
		Policy:    n.NotifyPane.policy(),
		RateLimit: n.RateLimitPerMinute,
	}
}

// NotifyPolicy returns the notification policy of a profile's panes:
// [notify] overlaid by [profile.NAME.notify]; "" is [notify]'s.
func (f *File) NotifyPolicy(profile string) (notify.Policy, error) {
	p, err := f.notifyPane(profile)
	if err != nil {
		return notify.Policy{}, err
	}
	return p.policy(), nil
}

// notifyPane returns a profile's per-pane notify keys.
func (f *File) notifyPane(profile string) (NotifyPane, error) {
	if _, err := f.Profile(profile); err != nil {
		return NotifyPane{}, err
	}
	if p, ok := f.ProfileNotify[profile]; ok {
		return p, nil
	}
	return f.Notify.NotifyPane, nil // "", or a built-in preset the user did not override
}

func (p NotifyPane) policy() notify.Policy {
	return notify.Policy{After: p.NotifyAfter, Renotify: p.Renotify, Resolved: p.NotifyResolved,
		Bell: p.NotifyBell, Muted: !p.Enabled}
}

// problem returns the first invalid key of [notify].
func (n Notify) problem() *keyProblem {
	return firstProblem(
		commandProblem("command", n.Command),
		urlProblem("url", n.URL),
		formatProblem("format", n.Format),
		intProblem("rate_limit_per_minute", n.RateLimitPerMinute, 1, maxRateLimit),
		n.NotifyPane.problem(),
		n.Answer.problem(n.URL),
	)
}

// problem returns the first invalid key of a NotifyPane.
func (p NotifyPane) problem() *keyProblem {
	return firstProblem(
		durationProblem("notify_after", p.NotifyAfter, 0, maxNotifyAfter),
		renotifyProblem("renotify", p.Renotify),
	)
}

func commandProblem(key string, argv []string) *keyProblem {
	if len(argv) == 0 {
		return nil
	}
	if strings.TrimSpace(argv[0]) == "" {
		return &keyProblem{key: key, reason: "must start with the program to run, not an empty string"}
	}
	n := 0
	for _, arg := range argv {
		n += len(arg)
		if strings.ContainsRune(arg, 0) {
			return &keyProblem{key: key, reason: "must not contain a NUL character"}
		}
	}
	if n > maxCommandChars {
		return &keyProblem{key: key, reason: fmt.Sprintf("must be at most %d bytes in all, not %d", maxCommandChars, n)}
	}
	return nil
}

// urlProblem checks a webhook URL; its reasons never quote the URL,
// whose path and query are secrets.
func urlProblem(key, raw string) *keyProblem {
	if raw == "" {
		return nil
	}
	if strings.ContainsFunc(raw, unicode.IsSpace) {
		return &keyProblem{key: key, reason: "must not contain spaces"}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return &keyProblem{key: key, reason: "is not a URL"}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return &keyProblem{key: key, reason: `must start with "https://" or "http://"`}
	}
	if u.Host == "" {
		return &keyProblem{key: key, reason: "must name a host"}
	}
	return nil
}

func formatProblem(key, format string) *keyProblem {
	if format == "text" || format == "json" {
		return nil
	}
	return &keyProblem{key: key, reason: fmt.Sprintf(`must be "text" or "json", not %q`, format)}
}

func renotifyProblem(key string, d time.Duration) *keyProblem {
	if d == 0 || d >= minRenotify && d <= maxRenotify {
		return nil
	}
	return &keyProblem{key: key, reason: fmt.Sprintf("must be 0 (never) or between %s and %s, not %s",
		formatDuration(minRenotify), formatDuration(maxRenotify), formatDuration(d))}
}
