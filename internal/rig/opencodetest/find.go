package opencodetest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// Version is the OpenCode version scripts/install-opencode.sh pins.
const Version = "1.18.33"

// InstallDir is where scripts/install-opencode.sh installs the CLI:
// $CODEMAN_E2E_OPENCODE_DIR, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-opencode.
func InstallDir() string {
	return clitest.CacheDir("CODEMAN_E2E_OPENCODE_DIR", "codeman-e2e-opencode")
}

// PluginDeps is where the install script put the @opencode-ai/plugin that
// every config dir OpenCode reads depends on: package.json,
// package-lock.json and node_modules.
func PluginDeps() string { return filepath.Join(InstallDir(), "plugin-deps") }

// cli is the pinned OpenCode: $CODEMAN_E2E_OPENCODE when set, else the
// install of scripts/install-opencode.sh.
func cli() clitest.CLI {
	return clitest.CLI{
		Pkg:     "opencodetest",
		Name:    "OpenCode",
		Env:     "CODEMAN_E2E_OPENCODE",
		Script:  "scripts/install-opencode.sh",
		Version: Version,
		Dir:     InstallDir(),
		// The native binaries of the platform packages the script picks
		// from: glibc or musl, with or without AVX2.
		Binaries: []string{
			"node_modules/opencode-linux-x64/bin/opencode",
			"node_modules/opencode-linux-x64-baseline/bin/opencode",
			"node_modules/opencode-linux-x64-musl/bin/opencode",
			"node_modules/opencode-linux-x64-baseline-musl/bin/opencode",
			"node_modules/opencode-linux-arm64/bin/opencode",
			"node_modules/opencode-linux-arm64-musl/bin/opencode",
		},
	}
}

// FindOpenCode returns the OpenCode binary the tests run:
// $CODEMAN_E2E_OPENCODE when set, else the install of
// scripts/install-opencode.sh. An opencode on PATH is not used: its version
// and its user's config are unknown.
func FindOpenCode() (path string, ok bool) { return cli().Find() }

// Require returns the OpenCode binary, skipping the test under -short and,
// naming CODEMAN_E2E_OPENCODE and scripts/install-opencode.sh, when it is
// missing.
func Require(t testing.TB) string {
	t.Helper()
	return cli().Require(t)
}

// CLIVersion runs the CLI at path with --version and returns the version
// it reports: "1.18.33", alone on its line. Even --version creates the
// config and data dirs under HOME, so it runs with home as HOME.
func CLIVersion(path, home string) (string, error) {
	cmd := exec.Command(path, "--version")
	cmd.Env = append(cmd.Environ(), "HOME="+home, "OPENCODE_DISABLE_AUTOUPDATE=1")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", path, err)
	}
	words := strings.Fields(string(out))
	if len(words) != 1 || strings.Count(words[0], ".") != 2 {
		return "", fmt.Errorf("run %s --version: printed %q, want VERSION alone", path, strings.Join(words, " "))
	}
	return words[0], nil
}
