package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/jonboulle/clockwork"
	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/remote"
)

func notifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "notify",
		Usage: "the notifications of panes that need a person",
		Subcommands: []*cli.Command{
			{
				Name:   "test",
				Usage:  "send a test message through every channel of [notify] in the config file",
				Flags:  []cli.Flag{profileFlag},
				Action: notifyTest,
			},
		},
	}
}

// notifyClock times notify test: its channels' bounds and the webhook's
// timeouts and backoff.
var notifyClock = clockwork.NewRealClock()

// notifyTest sends a test message through every configured channel at
// once and prints one line per channel, and a line on stderr for each
// retry while it waits.
func notifyTest(c *cli.Context) error {
	file, err := loadConfig()
	if err != nil {
		return err
	}
	profile := c.String(profileFlag.Name)
	policy, err := file.NotifyPolicy(profile) // an unknown profile is an error here too
	if err != nil {
		return err
	}
	opts := file.NotifyOptions()
	opts.Clock = notifyClock
	var mu sync.Mutex // channels retry at once
	opts.OnRetry = func(r notify.Retry) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", r.Channel, safetext.Line(r.String()))
	}
	chans, err := opts.Channels()
	if err != nil {
		return fmt.Errorf("%s: %w", file.Path, err)
	}
	if len(chans) == 0 {
		return errors.New("no notification channel is configured\n" + notifyHelp(file.Path))
	}
	w := c.App.Writer
	if policy.Muted {
		fmt.Fprintf(w, "note: %s sends no notification (enabled = false); testing the channels anyway\n", profileName(profile))
	}
	m := notify.TestMessage(notifyClock.Now())
	if file.Notify.Answer.Topic != "" {
		if m.Hold.Buttons, err = testButtons(file.Notify.Answer); err != nil {
			return err
		}
	}
	failed := 0
	for _, r := range notify.Test(c.Context, notifyClock, chans, m) {
		if r.Err != nil {
			failed++
			fmt.Fprintf(w, "%s: error: %s\n", r.Channel, safetext.Line(r.Err.Error()))
		} else {
			fmt.Fprintf(w, "%s: ok\n", r.Channel)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d notification %s failed", failed, len(chans), plural(len(chans), "channel", "channels"))
	}
	if len(m.Hold.Buttons) > 0 {
		fmt.Fprintln(w, `the ntfy message has an "Answer test" button: press it on your phone, and codeman doctor says whether its answer came back to the daemon`)
	}
	return nil
}

// testButtons is the button of the test message when [notify.answer]
// is set, signed with the daemon's key: pressing it proves that the reply
// topic reaches the daemon.
func testButtons(cfg config.NotifyAnswer) ([]notify.Button, error) {
	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		return nil, err
	}
	key, err := remote.LoadKey(filepath.Join(paths.State, remote.KeyFile))
	if err != nil {
		return nil, err
	}
	a := &remote.Answerer{Key: key, ReplyURL: cfg.Topic, AccessToken: cfg.AccessToken, Lifetime: cfg.TokenLifetime, Clock: notifyClock}
	return a.TestButtons()
}

// notifyHelp says how to configure a channel.
func notifyHelp(path string) string {
	return "Try: add a [notify] table to " + path + ` with one or more of:
  [notify]
  desktop = true                         # a desktop notification
  url = "https://ntfy.sh/YOUR-TOPIC"     # an ntfy topic or any webhook (format = "json" for a JSON body)
  command = ["notify-send", "codeman"]   # any program, run without a shell; the message is its last argument`
}

// profileName names a profile for a message: "" is [notify] itself.
func profileName(profile string) string {
	if profile == "" {
		return "[notify]"
	}
	return "profile " + profile
}
