package clitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CLI says which pinned CLI a test package runs and where a script
// installs it. A CLI on PATH is never used: its version and its user's
// settings are unknown.
type CLI struct {
	// Pkg is the test package's name, which prefixes messages.
	Pkg string
	// Name is what messages call the CLI ("Claude Code CLI").
	Name string
	// Env is the variable that names the binary to run instead of the
	// install ("CODEMAN_E2E_CLAUDE").
	Env string
	// Script installs the CLI ("scripts/install-claude.sh").
	Script  string
	Version string // the version Script pins
	Dir     string // where Script installs it
	// Binaries are where an install may hold the binary, slash-separated
	// paths relative to Dir, in the order they are tried.
	Binaries []string
}

// Find returns the binary the tests run: $Env when set, else the first
// executable of Binaries in Dir.
func (c CLI) Find() (path string, ok bool) {
	if p := os.Getenv(c.Env); p != "" {
		return p, isExecutable(p)
	}
	for _, rel := range c.Binaries {
		if p := filepath.Join(c.Dir, filepath.FromSlash(rel)); isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

// Require returns the binary the tests run. It skips the test under
// -short and, saying how to install it, when the binary is missing.
func (c CLI) Require(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s: the real %s is not run under -short", c.Pkg, c.Name)
	}
	path, ok := c.Find()
	if !ok {
		t.Skip(c.missing())
	}
	return path
}

// missing says why Find found nothing and how to fix it.
func (c CLI) missing() string {
	if p := os.Getenv(c.Env); p != "" {
		return c.Pkg + ": " + c.Env + "=" + p + " is not an executable file"
	}
	return c.Pkg + ": " + c.Name + " not found; run " + c.Script + " (installs " +
		c.Version + " under " + c.Dir + ") or set " + c.Env
}

// CacheDir is where an install script puts a CLI: $env when set, else
// name in ${XDG_CACHE_HOME:-$HOME/.cache}.
func CacheDir(env, name string) string {
	if dir := os.Getenv(env); dir != "" {
		return dir
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		cache = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(cache, name)
}

// VersionWords runs the CLI at path with --version and returns the words
// it printed.
func VersionWords(path string) ([]string, error) {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("run %s --version: %w", path, err)
	}
	words := strings.Fields(string(out))
	if len(words) == 0 {
		return nil, fmt.Errorf("run %s --version: no output", path)
	}
	return words, nil
}

// isExecutable reports whether path is a regular file someone may run.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
