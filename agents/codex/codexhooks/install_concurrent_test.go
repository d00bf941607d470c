package codexhooks_test

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/hooks"
)

// installRounds is how many installs and uninstalls run while another
// program edits config.toml.
const installRounds = 40

// editBurst is how many edits the other program makes during each.
const editBurst = 5

// editConfigLikeAnEditor adds a top-level key to config.toml as a person's
// editor or Codex would: read, change, write a synced temp file beside it
// and rename it into place (hooks.WriteAtomic), with no regard for other
// writers.
func editConfigLikeAnEditor(path, key string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return hooks.WriteAtomic(path, append([]byte(key+" = true\n"), data...), 0o600)
}

// Each install and uninstall runs while another program makes a burst of
// edits to config.toml. None of its edits may be lost, and the file is
// valid TOML at the end with codeman's trust in it after a last install.
// The installs here run one after another; installs of codeman's run at
// once are TestInstall_ParallelProcesses's.
func TestInstall_ConcurrentConfigWriter(t *testing.T) {
	opts := testOptions(t)
	path := codexhooks.ConfigPath(opts.Home)
	writeFile(t, path, "model = \"gpt-5.5\"\n")
	edits, gaveUp := 0, 0
	for i := range installRounds {
		op := codexhooks.Install
		if i%2 == 1 {
			op = codexhooks.Uninstall
		}
		burst := make(chan error, 1)
		go func(first int) {
			for k := range editBurst {
				if err := editConfigLikeAnEditor(path, fmt.Sprintf("writer%04d", first+k)); err != nil {
					burst <- err
					return
				}
			}
			burst <- nil
		}(edits)
		_, err := op(opts)
		if werr := <-burst; werr != nil {
			t.Fatal(werr)
		}
		edits += editBurst
		switch {
		case errors.Is(err, hooks.ErrConcurrentChange):
			gaveUp++
		case err != nil:
			t.Fatal(err)
		}
	}
	t.Logf("%d installs and uninstalls (%d gave up) during %d edits of another program", installRounds, gaveUp, edits)
	if _, err := codexhooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if _, err := toml.DecodeFile(path, &doc); err != nil {
		t.Fatalf("config.toml after the race: %v", err)
	}
	var lost []string
	for i := range edits {
		if key := fmt.Sprintf("writer%04d", i); doc[key] != true {
			lost = append(lost, key)
		}
	}
	if len(lost) > 0 {
		t.Errorf("%d of %d edits of another program lost: %v", len(lost), edits, lost)
	}
	if doc["model"] != "gpt-5.5" {
		t.Errorf("model = %v, want the user's", doc["model"])
	}
	if st, err := codexhooks.Status(opts); err != nil || !st.UpToDate() {
		t.Errorf("status after a last install: %+v, %v; want installed and trusted", st, err)
	}
}
