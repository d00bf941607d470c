package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// copyBinScripts copies codeman-bin.sh and what it sources into a plugin
// dir of its own, whose bin/ starts empty.
func copyBinScripts(t *testing.T) string {
	t.Helper()
	plugin := t.TempDir()
	if err := os.MkdirAll(filepath.Join(plugin, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"codeman-bin.sh", "variables.sh", "helpers.sh"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plugin, "scripts", f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return plugin
}

// fakeGoScript stands in for go: it logs its dir and arguments, one a line,
// and writes codeman and codeman-hook into the -o dir.
const fakeGoScript = `#!/bin/sh
{ pwd; printf '%s\n' "$@"; } > "$FAKE_GO_LOG"
prev=
for a in "$@"; do
	[ "$prev" = -o ] && out="$a"
	prev="$a"
done
for p in codeman codeman-hook; do
	printf '#!/bin/sh\n' > "$out$p" && chmod +x "$out$p"
done
`

// runCodemanBin runs the plugin's codeman-bin.sh with PATH holding the
// system dirs and, when withGo, a fake go. It returns the path printed (the
// last line), whether it succeeded, and the fake go's log ("" when go did
// not run).
func runCodemanBin(t *testing.T, plugin string, withGo bool) (string, bool, string) {
	t.Helper()
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	path := "/usr/bin:/bin"
	log := filepath.Join(t.TempDir(), "go.log")
	if withGo {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go"), []byte(fakeGoScript), 0o755); err != nil {
			t.Fatal(err)
		}
		path = dir + ":" + path
	}
	cmd := exec.Command(filepath.Join(plugin, "scripts", "codeman-bin.sh"))
	cmd.Env = []string{"PATH=" + path, "TMUX=" + srv.Socket() + ",0,0", "HOME=" + t.TempDir(), "FAKE_GO_LOG=" + log}
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	logged, _ := os.ReadFile(log) // missing: go did not run
	return lines[len(lines)-1], err == nil, string(logged)
}

func placeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// codeman-bin.sh builds codeman and codeman-hook into the plugin's bin/,
// stripped and trimmed, in one go build from the plugin's dir.
func TestCodemanBin_BuildsBoth(t *testing.T) {
	plugin := copyBinScripts(t)
	got, ok, log := runCodemanBin(t, plugin, true)
	bin := filepath.Join(plugin, "bin")
	if !ok || got != filepath.Join(bin, "codeman") {
		t.Fatalf("codeman-bin.sh printed %q (ok %v), want %s", got, ok, filepath.Join(bin, "codeman"))
	}
	want := []string{plugin, "build", "-trimpath", "-ldflags=-s -w", "-tags", "urfave_cli_no_docs", "-o", bin + "/", "./cmd/codeman", "./cmd/codeman-hook"}
	if args := strings.Split(strings.TrimSpace(log), "\n"); !slices.Equal(args, want) {
		t.Errorf("go ran in and with\n%q\nwant\n%q", args, want)
	}
	if _, err := os.Stat(filepath.Join(bin, "codeman-hook")); err != nil {
		t.Error(err)
	}
}

// A bin/ built before codeman-hook existed gets it when Go is there, and
// is used as it is when Go is not.
func TestCodemanBin_OlderBuild(t *testing.T) {
	t.Run("WithGo", func(t *testing.T) {
		plugin := copyBinScripts(t)
		placeExecutable(t, filepath.Join(plugin, "bin", "codeman"))
		got, ok, log := runCodemanBin(t, plugin, true)
		if !ok || got != filepath.Join(plugin, "bin", "codeman") || !strings.Contains(log, "./cmd/codeman-hook") {
			t.Errorf("codeman-bin.sh printed %q (ok %v), go log %q; want codeman-hook built", got, ok, log)
		}
	})
	t.Run("WithoutGo", func(t *testing.T) {
		plugin := copyBinScripts(t)
		placeExecutable(t, filepath.Join(plugin, "bin", "codeman"))
		got, ok, _ := runCodemanBin(t, plugin, false)
		if !ok || got != filepath.Join(plugin, "bin", "codeman") {
			t.Errorf("codeman-bin.sh printed %q (ok %v), want the codeman built before", got, ok)
		}
	})
}

// A complete build is used as it is: go does not run.
func TestCodemanBin_Built(t *testing.T) {
	plugin := copyBinScripts(t)
	placeExecutable(t, filepath.Join(plugin, "bin", "codeman"))
	placeExecutable(t, filepath.Join(plugin, "bin", "codeman-hook"))
	got, ok, log := runCodemanBin(t, plugin, true)
	if !ok || got != filepath.Join(plugin, "bin", "codeman") || log != "" {
		t.Errorf("codeman-bin.sh printed %q (ok %v), go log %q; want the build used as it is", got, ok, log)
	}
}
