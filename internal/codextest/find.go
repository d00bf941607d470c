package codextest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Version is the Codex CLI version scripts/install-codex.sh pins.
const Version = "0.171.0"

// InstallDir is where scripts/install-codex.sh installs the CLI:
// $CODEMAN_E2E_CODEX_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-codex.
func InstallDir() string {
	if dir := os.Getenv("CODEMAN_E2E_CODEX_DIR"); dir != "" {
		return dir
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		cache = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(cache, "codeman-e2e-codex")
}

// nativeBinaries are the native binaries an npm install may hold: the
// @openai/codex package pulls in the build of its platform under an alias.
var nativeBinaries = []string{
	"node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
	"node_modules/@openai/codex-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/codex",
}

// FindCodex returns the Codex binary the tests run: $CODEMAN_E2E_CODEX
// when set, else the install of scripts/install-codex.sh. A codex on PATH
// is not used: its version and its user's config are unknown.
func FindCodex() (path string, ok bool) {
	if p := os.Getenv("CODEMAN_E2E_CODEX"); p != "" {
		return p, isExecutable(p)
	}
	for _, rel := range nativeBinaries {
		if p := filepath.Join(InstallDir(), filepath.FromSlash(rel)); isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

// CLIVersion runs the CLI at path with --version and returns the version
// it reports ("0.171.0" of "codex-cli 0.171.0").
func CLIVersion(path string) (string, error) {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", path, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) != 2 || fields[0] != "codex-cli" {
		return "", fmt.Errorf("run %s --version: printed %q, want codex-cli VERSION", path, strings.TrimSpace(string(out)))
	}
	return fields[1], nil
}

// isExecutable reports whether path is a regular file someone may run.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// missingCodex says why FindCodex found nothing and how to fix it.
func missingCodex() string {
	if p := os.Getenv("CODEMAN_E2E_CODEX"); p != "" {
		return "codextest: CODEMAN_E2E_CODEX=" + p + " is not an executable file"
	}
	return "codextest: OpenAI Codex CLI not found; run scripts/install-codex.sh (installs " +
		Version + " under " + InstallDir() + ") or set CODEMAN_E2E_CODEX"
}
