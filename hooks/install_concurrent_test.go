package hooks_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

// writerEdits is how many edits the concurrent writer makes.
const writerEdits = 200

// editLikeClaude adds key to the settings file the way Claude Code does:
// read, change, write and sync a temp file beside it and rename it into
// place, with no regard for other writers.
func editLikeClaude(path, key string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("writer read %q: %w", data, err)
	}
	doc[key] = true
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp.writer.*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// TestInstall_ConcurrentWriter: while install and uninstall run over and
// over, another program edits the file many times. None of its edits may be
// lost; an install that cannot get a stable file says so. The installs
// here run one after another; installs of codeman's run at once are
// TestInstall_ParallelProcesses's.
func TestInstall_ConcurrentWriter(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	done := make(chan error, 1)
	go func() {
		for i := range writerEdits {
			if err := editLikeClaude(path, fmt.Sprintf("writer%03d", i)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	var ok, gaveUp int
	for i := 0; ; i++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			checkWriterEdits(t, path)
			t.Logf("%d installs and uninstalls done, %d gave up", ok, gaveUp)
			if _, err := hooks.Install(opts(path)); err != nil {
				t.Fatal(err)
			}
			if _, err := hooks.Uninstall(opts(path)); err != nil {
				t.Fatal(err)
			}
			checkWriterEdits(t, path)
			// The writer may have written back a version it read with
			// codeman's hooks in it: those are no longer codeman's.
			if st, err := hooks.Status(opts(path)); err != nil || len(st.Installed) > 0 {
				t.Errorf("after uninstall status = %+v, %v; want nothing installed", st, err)
			}
			return
		default:
		}
		op := hooks.Install
		if i%2 == 1 {
			op = hooks.Uninstall
		}
		_, err := op(opts(path))
		switch {
		case err == nil:
			ok++
		case errors.Is(err, hooks.ErrConcurrentChange):
			gaveUp++
			t.Log(err)
		default:
			t.Fatal(err)
		}
	}
}

// checkWriterEdits expects every key the writer added.
func checkWriterEdits(t *testing.T, path string) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	var lost []string
	for i := range writerEdits {
		if key := fmt.Sprintf("writer%03d", i); doc[key] != true {
			lost = append(lost, key)
		}
	}
	if len(lost) > 0 {
		t.Errorf("%d of %d edits of the other writer lost: %v", len(lost), writerEdits, lost)
	}
}
