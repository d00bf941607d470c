package copilottest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// Version is the Copilot CLI version scripts/install-copilot.sh pins.
const Version = "1.0.102"

// InstallDir is where scripts/install-copilot.sh installs the CLI:
// $CODEMAN_E2E_COPILOT_DIR, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-copilot.
func InstallDir() string {
	return clitest.CacheDir("CODEMAN_E2E_COPILOT_DIR", "codeman-e2e-copilot")
}

// CacheHome is the COPILOT_CACHE_HOME every run shares: the dir the install
// script unpacked the binary into. A fresh one would cost each start
// seconds of unpacking.
func CacheHome() string { return filepath.Join(InstallDir(), "cache") }

// cli is the pinned Copilot CLI: $CODEMAN_E2E_COPILOT when set, else the
// install of scripts/install-copilot.sh.
func cli() clitest.CLI {
	return clitest.CLI{
		Pkg:     "copilottest",
		Name:    "GitHub Copilot CLI",
		Env:     "CODEMAN_E2E_COPILOT",
		Script:  "scripts/install-copilot.sh",
		Version: Version,
		Dir:     InstallDir(),
		// The native binaries @github/copilot may pull in: one platform
		// package, musl or glibc.
		Binaries: []string{
			"node_modules/@github/copilot-linux-x64/copilot",
			"node_modules/@github/copilot-linuxmusl-x64/copilot",
			"node_modules/@github/copilot-linux-arm64/copilot",
			"node_modules/@github/copilot-linuxmusl-arm64/copilot",
		},
	}
}

// FindCopilot returns the Copilot binary the tests run:
// $CODEMAN_E2E_COPILOT when set, else the install of
// scripts/install-copilot.sh. A copilot on PATH is not used: its version
// and its user's config are unknown.
func FindCopilot() (path string, ok bool) { return cli().Find() }

// Require returns the Copilot binary, skipping the test under -short and,
// naming CODEMAN_E2E_COPILOT and scripts/install-copilot.sh, when it is
// missing.
func Require(t testing.TB) string {
	t.Helper()
	return cli().Require(t)
}

// CLIVersion runs the CLI at path with --version and returns the version
// it reports ("1.0.102" of "GitHub Copilot CLI 1.0.102."). It unpacks into
// CacheHome, not the caller's cache dir.
func CLIVersion(path string) (string, error) {
	cmd := exec.Command(path, "--version")
	cmd.Env = append(cmd.Environ(), "COPILOT_CACHE_HOME="+CacheHome(), "COPILOT_AUTO_UPDATE=false")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", path, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	words := strings.Fields(first)
	if len(words) != 4 || strings.Join(words[:3], " ") != "GitHub Copilot CLI" {
		return "", fmt.Errorf("run %s --version: printed %q, want \"GitHub Copilot CLI VERSION.\"", path, first)
	}
	return strings.TrimSuffix(words[3], "."), nil
}
