package codextest

import (
	"fmt"
	"strings"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// Version is the Codex CLI version scripts/install-codex.sh pins.
const Version = "0.171.0"

// InstallDir is where scripts/install-codex.sh installs the CLI:
// $CODEMAN_E2E_CODEX_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-codex.
func InstallDir() string { return clitest.CacheDir("CODEMAN_E2E_CODEX_DIR", "codeman-e2e-codex") }

// cli is the pinned Codex CLI: $CODEMAN_E2E_CODEX when set, else the
// install of scripts/install-codex.sh.
func cli() clitest.CLI {
	return clitest.CLI{
		Pkg:     "codextest",
		Name:    "OpenAI Codex CLI",
		Env:     "CODEMAN_E2E_CODEX",
		Script:  "scripts/install-codex.sh",
		Version: Version,
		Dir:     InstallDir(),
		// The native binaries an npm install may hold: the @openai/codex
		// package pulls in the build of its platform under an alias.
		Binaries: []string{
			"node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
			"node_modules/@openai/codex-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/codex",
		},
	}
}

// FindCodex returns the Codex binary the tests run: $CODEMAN_E2E_CODEX
// when set, else the install of scripts/install-codex.sh. A codex on PATH
// is not used: its version and its user's config are unknown.
func FindCodex() (path string, ok bool) { return cli().Find() }

// CLIVersion runs the CLI at path with --version and returns the version
// it reports ("0.171.0" of "codex-cli 0.171.0").
func CLIVersion(path string) (string, error) {
	words, err := clitest.VersionWords(path)
	if err != nil {
		return "", err
	}
	if len(words) != 2 || words[0] != "codex-cli" {
		return "", fmt.Errorf("run %s --version: printed %q, want codex-cli VERSION", path, strings.Join(words, " "))
	}
	return words[1], nil
}
