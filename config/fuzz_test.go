package config_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/config"
)

// FuzzParse parses arbitrary config files through the public entry
// point. None may panic; a refused file gets an Error that names it;
// an accepted one prints, for [respawn] and each profile, a file that
// parses again to the same configuration. The seeds are the real fixtures
// and files that break each kind of key.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.toml")
	if len(files) == 0 {
		f.Fatal("no config fixtures in testdata")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, seed := range []string{
		"[respawn]\ncompletion_confirm = \"-5s\"\nsend_clear = yes\n",
		"[respawn]\nmax_stuck_recoveries = 99999999999999999999\n",
		"[respawn.ai_idle_check]\nenabled = 1\ncooldown = 3\n",
		"[profile.\"bad name\"]\n[profile.ok]\nduration = \"1h\"\n",
		"[profile.overnight-autonomous]\nkickstart_prompt = \"\"\"\r\nmulti\r\nline\"\"\"\n",
		"[[pattern]]\nname = \"x\"\nkind = \"working\"\nregexp = '(['\n",
		"[[pattern]]\nname = 'y'\nkind = 'nope'\nscope = 'both'\nregexp = '\\d'\n",
		"respawn = 3\n[tmux]\nsend_pause = \"0s\"\nenter_retries = 0\n[screen]\npoll_interval = \"1ms\"\n",
		"[checks]\nmax_concurrent = -1\nclaude_path = \"\\u0000\"\n",
		"a.b.c = {x = [1, {y = 2}]}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := config.Parse("f.toml", data)
		if err != nil {
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error is no config.Error: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "f.toml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, profile := range append([]string{""}, file.ProfileNames()...) {
			want, err := file.Profile(profile)
			if err != nil {
				t.Fatalf("profile %q of an accepted file: %v", profile, err)
			}
			var printed bytes.Buffer
			if err := file.Encode(&printed, profile); err != nil {
				t.Fatalf("encode profile %q: %v", profile, err)
			}
			again, err := config.Parse("printed.toml", printed.Bytes())
			if err != nil {
				t.Fatalf("printed profile %q does not parse: %v\n%s", profile, err, printed.Bytes())
			}
			if again.Respawn != want {
				t.Fatalf("printed profile %q parses to\n%+v\nwant\n%+v\n%s", profile, again.Respawn, want, printed.Bytes())
			}
			var reprinted bytes.Buffer
			if err := again.Encode(&reprinted, ""); err != nil {
				t.Fatal(err)
			}
			// The profile's printout starts with a comment naming it.
			_, body, _ := bytes.Cut(printed.Bytes(), []byte("\n\n"))
			if profile == "" {
				body = printed.Bytes()
			}
			if !bytes.Equal(reprinted.Bytes(), body) {
				t.Fatalf("printed profile %q prints again as\n%s\nwant\n%s", profile, reprinted.Bytes(), body)
			}
		}
	})
}
