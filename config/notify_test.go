package config_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/notify"
)

func TestParse_Notify(t *testing.T) {
	f := mustLoadConfig(t, "testdata/full.toml")
	want := config.Notify{
		Command:            []string{"notify-send", "--urgency=critical", "codeman"},
		Desktop:            true,
		URL:                "https://ntfy.sh/codeman-test-topic",
		Format:             "json",
		RateLimitPerMinute: 4,
		NotifyPane:         config.NotifyPane{Enabled: false, NotifyAfter: time.Minute, Renotify: 0, NotifyResolved: true, NotifyBell: false},
		Answer: config.NotifyAnswer{Topic: "https://ntfy.sh/codeman-test-replies", AccessToken: "tk_test",
			Kinds: []string{"question", "permission", "menu"}, TokenLifetime: 2 * time.Hour},
	}
	if !reflect.DeepEqual(f.Notify, want) {
		t.Errorf("Notify = %+v\nwant %+v", f.Notify, want)
	}
	// The profile's table is laid over [notify].
	overnight := config.NotifyPane{Enabled: true, NotifyAfter: 5 * time.Minute, Renotify: 0, NotifyResolved: true, NotifyBell: false}
	if got := f.ProfileNotify["overnight"]; got != overnight {
		t.Errorf("ProfileNotify[overnight] = %+v, want %+v", got, overnight)
	}

	o := f.NotifyOptions()
	if !reflect.DeepEqual(o.Command, want.Command) || !o.Desktop || o.URL != want.URL || o.Format != "json" || o.RateLimit != 4 ||
		o.Policy != (notify.Policy{After: time.Minute, Resolved: true, Muted: true}) {
		t.Errorf("NotifyOptions = %+v", o)
	}
	for _, tc := range []struct {
		profile string
		want    notify.Policy
	}{
		{"", notify.Policy{After: time.Minute, Resolved: true, Muted: true}},
		{"overnight", notify.Policy{After: 5 * time.Minute, Resolved: true}},
		{"ralph-todo", notify.Policy{After: time.Minute, Resolved: true, Muted: true}}, // a preset: [notify]'s
	} {
		if got, err := f.NotifyPolicy(tc.profile); err != nil || got != tc.want {
			t.Errorf("NotifyPolicy(%q) = %+v, %v; want %+v", tc.profile, got, err, tc.want)
		}
	}
	if _, err := f.NotifyPolicy("nope"); err == nil || !strings.Contains(err.Error(), `unknown profile "nope"`) {
		t.Errorf("NotifyPolicy(nope) = %v", err)
	}
}

func TestNotify_Defaults(t *testing.T) {
	o := config.Default().NotifyOptions()
	if o.Command != nil || o.Desktop || o.URL != "" || o.RateLimit != notify.DefaultRateLimit || o.Policy != notify.DefaultPolicy() {
		t.Errorf("default NotifyOptions = %+v", o)
	}
	if chans, err := o.Channels(); err != nil || len(chans) != 0 {
		t.Errorf("default channels = %v, %v; want none", chans, err)
	}
	// A profile of the user's that sets no notify key has [notify]'s.
	f, err := config.Parse("c.toml", []byte("[notify]\nnotify_after = \"2m\"\n[profile.x]\nsend_init = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := f.NotifyPolicy("x"); err != nil || p.After != 2*time.Minute || !p.Bell {
		t.Errorf("NotifyPolicy(x) = %+v, %v", p, err)
	}
	// command = [] is no command.
	f, err = config.Parse("c.toml", []byte("[notify]\ncommand = []\n"))
	if err != nil || f.Notify.Command != nil {
		t.Errorf("command = [] gives %#v, %v", f.Notify.Command, err)
	}
}

func TestParse_NotifyErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[notify]\nnotify_afer = \"10s\"\n",
			`c.toml:2: key "notify.notify_afer": unknown key (did you mean "notify_after"?)`},
		{"[profile.x.notify]\nurl = \"https://ntfy.sh/secret-topic\"\n",
			`c.toml:2: key "profile.x.notify.url": unknown key (channels and the rate limit are the daemon's: it belongs in [notify])`},
		{"[profile.x]\nnotfy = {enabled = false}\n",
			`c.toml:2: key "profile.x.notfy": unknown key (did you mean "notify"?)`},
		{"[profile.x]\nnotify = 3\n",
			`c.toml:2: key "profile.x.notify": expected a table, got integer 3`},
		{"[notify]\ncommand = \"notify-send\"\n",
			`c.toml:2: key "notify.command": expected an array of strings such as ["notify-send", "codeman"], got string "notify-send"`},
		{"[notify]\ncommand = [\"notify-send\", 1]\n",
			`c.toml:2: key "notify.command": expected an array of strings such as ["notify-send", "codeman"], got an array`},
		{"[notify]\ncommand = [\" \", \"codeman\"]\n",
			`c.toml:2: key "notify.command": must start with the program to run, not an empty string`},
		{"[notify]\nurl = \"ftp://ntfy.sh/secret-topic\"\n",
			`c.toml:2: key "notify.url": must start with "https://" or "http://"`},
		{"[notify]\nurl = \"https:///secret-topic\"\n",
			`c.toml:2: key "notify.url": must name a host`},
		{"[notify]\nurl = \"https://ntfy.sh/secret topic\"\n",
			`c.toml:2: key "notify.url": must not contain spaces`},
		{"[notify]\nformat = \"xml\"\n",
			`c.toml:2: key "notify.format": must be "text" or "json", not "xml"`},
		{"[notify]\nrate_limit_per_minute = 0\n",
			`c.toml:2: key "notify.rate_limit_per_minute": must be between 1 and 600, not 0`},
		{"[notify]\nnotify_after = 10\n",
			`c.toml:2: key "notify.notify_after": expected a duration string such as "10s", got integer 10`},
		{"[notify]\ndesktop = \"yes\"\n",
			`c.toml:2: key "notify.desktop": expected true or false, got string "yes"`},
		{"[notify]\n\nrenotify = \"30s\"\n",
			`c.toml:3: key "notify.renotify": must be 0 (never) or between 1m and 168h, not 30s`},
		{"[profile.x.notify]\nenabled = true\nnotify_after = \"25h\"\n",
			`c.toml:3: key "profile.x.notify.notify_after": must be between 0s and 24h, not 25h`},
		{"[notify.answer]\ntopic = \"https://ntfy.sh/secret-replies\"\n",
			`c.toml:2: key "notify.answer.topic": needs [notify] url, the ntfy topic whose messages carry the buttons`},
		{"[notify]\nurl = \"https://ntfy.sh/secret-topic\"\n[notify.answer]\ntopic = \"https://ntfy.sh/secret-topic/\"\n",
			`c.toml:4: key "notify.answer.topic": must be a topic of its own, not [notify] url's: the daemon reads every message posted to it`},
		{"[notify]\nurl = \"https://ntfy.sh/secret-topic\"\n[notify.answer]\ntopic = \"ntfy.sh/secret-replies\"\n",
			`c.toml:4: key "notify.answer.topic": must start with "https://" or "http://"`},
		{"[notify.answer]\nkinds = [\"question\", \"stuck\"]\n",
			`c.toml:2: key "notify.answer.kinds": must list kinds of question, permission, menu, not "stuck"`},
		{"[notify.answer]\ntoken_lifetime = \"30s\"\n",
			`c.toml:2: key "notify.answer.token_lifetime": must be between 1m and 24h, not 30s`},
		{"[notify.answer]\naccess_token = \"tk secret\"\n",
			`c.toml:2: key "notify.answer.access_token": must be printable ASCII without spaces`},
		{"[notify.answer]\ntopik = \"x\"\n",
			`c.toml:2: key "notify.answer.topik": unknown key (did you mean "topic"?)`},
	} {
		_, err := config.Parse("c.toml", []byte(tc.text))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) =\n  %v\nwant\n  %s", tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("Parse(%q): the error shows the URL's secret: %v", tc.text, err)
		}
	}
}
