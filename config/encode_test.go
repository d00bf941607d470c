package config_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

func TestFile_EncodeRoundTrip(t *testing.T) {
	for _, path := range []string{"testdata/full.toml", "testdata/styles.toml"} {
		f := mustLoadConfig(t, path)
		for _, profile := range f.ProfileNames() {
			want, _ := f.Profile(profile)
			var out bytes.Buffer
			if err := f.Encode(&out, profile); err != nil {
				t.Fatal(err)
			}
			g, err := config.Parse("printed.toml", out.Bytes())
			if err != nil {
				t.Fatalf("%s profile %q: parse printed: %v\n%s", path, profile, err, out.String())
			}
			if g.Respawn != want || g.Screen != f.Screen || g.Tmux != f.Tmux || g.Checks != f.Checks ||
				!reflect.DeepEqual(g.Notify, effectiveNotify(f, profile)) ||
				!sameConfigPatterns(g.Patterns, f.Patterns) || len(g.Profiles) != 0 {
				t.Errorf("%s profile %q: printed config parses to %+v", path, profile, g)
			}
		}
	}
}

func TestFile_EncodeUnknownProfile(t *testing.T) {
	var out bytes.Buffer
	if err := config.Default().Encode(&out, "nope"); err == nil || out.Len() != 0 {
		t.Errorf("Encode(nope) = %v, wrote %q", err, out.String())
	}
}

// TestFile_EncodeRoundTripProperty prints random valid files and parses
// them back.
func TestFile_EncodeRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := config.Default()
		f.Respawn = genValidConfig(t)
		f.Screen.PollInterval = genConfigDuration(t, "poll_interval", 200*time.Millisecond, 10*time.Second)
		f.Tmux.SendPause = genConfigDuration(t, "send_pause", 0, 5*time.Second)
		f.Tmux.EnterRetries = rapid.IntRange(0, 10).Draw(t, "enter_retries")
		f.Checks.ClaudePath = genConfigText(t, "claude_path", 50)
		f.Checks.MaxConcurrent = rapid.IntRange(1, 16).Draw(t, "max_concurrent")
		f.Notify = genConfigNotify(t)
		f.Patterns = genConfigPatterns(t)
		var out bytes.Buffer
		if err := f.Encode(&out, ""); err != nil {
			t.Fatal(err)
		}
		g, err := config.Parse("printed.toml", out.Bytes())
		if err != nil {
			t.Fatalf("parse printed: %v\n%s", err, out.String())
		}
		if g.Respawn != f.Respawn {
			t.Fatalf("Respawn round trip:\n got %+v\nwant %+v\n%s", g.Respawn, f.Respawn, out.String())
		}
		if g.Screen != f.Screen || g.Tmux != f.Tmux || g.Checks != f.Checks || !reflect.DeepEqual(g.Notify, f.Notify) ||
			!sameConfigPatterns(g.Patterns, f.Patterns) {
			t.Fatalf("tables round trip: got %+v\nwant %+v\n%s", g, f, out.String())
		}
	})
}

// effectiveNotify is [notify] with a profile's notify keys.
func effectiveNotify(f *config.File, profile string) config.Notify {
	n := f.Notify
	if p, ok := f.ProfileNotify[profile]; ok {
		n.NotifyPane = p
	}
	return n
}

// sameConfigPatterns compares patterns without their lines, which differ
// between a file and its printed form.
func sameConfigPatterns(a, b []respawn.PatternSpec) bool {
	strip := func(ps []respawn.PatternSpec) []respawn.PatternSpec {
		out := make([]respawn.PatternSpec, len(ps))
		for i, p := range ps {
			p.Line = 0
			out[i] = p
		}
		return out
	}
	return reflect.DeepEqual(strip(a), strip(b))
}
