package opencodehooks_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
)

// install is a codeman install in a temp dir: its binary and codeman-hook
// beside it, both executable, and a HOME without OpenCode's config dir.
type install struct {
	home, binary, handler string
}

func newInstall(t *testing.T) install {
	t.Helper()
	dir := t.TempDir()
	in := install{
		home:    filepath.Join(dir, "home"),
		binary:  filepath.Join(dir, "bin", "codeman"),
		handler: filepath.Join(dir, "bin", "codeman-hook"),
	}
	writeExecutable(t, in.binary)
	writeExecutable(t, in.handler)
	if err := os.Mkdir(in.home, 0o755); err != nil {
		t.Fatal(err)
	}
	return in
}

func (in install) configDir() string { return filepath.Join(in.home, ".config", "opencode") }

func (in install) path() string { return opencodehooks.PluginPath(in.configDir()) }

func (in install) opts() opencodehooks.Options {
	return opencodehooks.Options{Path: in.path(), Binary: in.binary, Handler: in.handler}
}

func (in install) env(extra ...string) func(string) string {
	env := map[string]string{"HOME": in.home}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return func(k string) string { return env[k] }
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	writeFile(t, path, "#!/bin/sh\n")
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
