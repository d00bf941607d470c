package claudetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Version is the Claude Code version scripts/install-claude.sh pins.
const Version = "2.1.332"

// PreviousVersion is the pin before Version. Its recordings stay in the
// replay fixtures, and CI runs the end-to-end tests against it too
// (scripts/install-claude.sh 2.1.328).
const PreviousVersion = "2.1.328"

// InstallDir is where scripts/install-claude.sh installs the CLI:
// $CODEMAN_E2E_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e.
func InstallDir() string {
	if dir := os.Getenv("CODEMAN_E2E_DIR"); dir != "" {
		return dir
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		cache = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(cache, "codeman-e2e")
}

// FindClaude returns the Claude Code binary the tests run:
// $CODEMAN_E2E_CLAUDE when set, else the install of
// scripts/install-claude.sh. A claude on PATH is not used: its version and
// its user's settings are unknown.
func FindClaude() (path string, ok bool) {
	if p := os.Getenv("CODEMAN_E2E_CLAUDE"); p != "" {
		return p, isExecutable(p)
	}
	modules := filepath.Join(InstallDir(), "node_modules")
	for _, p := range []string{
		// The native binary of the platform package, which the npm
		// postinstall also links to .bin/claude.
		filepath.Join(modules, "@anthropic-ai", "claude-code-linux-x64", "claude"),
		filepath.Join(modules, ".bin", "claude"),
	} {
		if isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

// CLIVersion runs the CLI at path with --version and returns the version
// it reports ("2.1.332" of "2.1.332 (Claude Code)").
func CLIVersion(path string) (string, error) {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", path, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return "", fmt.Errorf("run %s --version: no output", path)
	}
	return fields[0], nil
}

// isExecutable reports whether path is a regular file someone may run.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// missingClaude says why FindClaude found nothing and how to fix it.
func missingClaude() string {
	if p := os.Getenv("CODEMAN_E2E_CLAUDE"); p != "" {
		return "claudetest: CODEMAN_E2E_CLAUDE=" + p + " is not an executable file"
	}
	return "claudetest: Claude Code CLI not found; run scripts/install-claude.sh (installs " +
		Version + " under " + InstallDir() + ") or set CODEMAN_E2E_CLAUDE"
}
