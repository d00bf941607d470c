package claudetest

import "github.com/codeman-dev/codeman/internal/rig/clitest"

// Version is the Claude Code version scripts/install-claude.sh pins.
const Version = "2.1.332"

// PreviousVersion is the pin before Version. Its recordings stay in the
// replay fixtures, and CI runs the end-to-end tests against it too
// (scripts/install-claude.sh 2.1.328).
const PreviousVersion = "2.1.328"

// InstallDir is where scripts/install-claude.sh installs the CLI:
// $CODEMAN_E2E_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e.
func InstallDir() string { return clitest.CacheDir("CODEMAN_E2E_DIR", "codeman-e2e") }

// cli is the pinned Claude Code CLI: $CODEMAN_E2E_CLAUDE when set, else
// the install of scripts/install-claude.sh.
func cli() clitest.CLI {
	return clitest.CLI{
		Pkg:     "claudetest",
		Name:    "Claude Code CLI",
		Env:     "CODEMAN_E2E_CLAUDE",
		Script:  "scripts/install-claude.sh",
		Version: Version,
		Dir:     InstallDir(),
		Binaries: []string{
			// The native binary of the platform package, which the npm
			// postinstall also links to .bin/claude.
			"node_modules/@anthropic-ai/claude-code-linux-x64/claude",
			"node_modules/.bin/claude",
		},
	}
}

// FindClaude returns the Claude Code binary the tests run:
// $CODEMAN_E2E_CLAUDE when set, else the install of
// scripts/install-claude.sh. A claude on PATH is not used: its version and
// its user's settings are unknown.
func FindClaude() (path string, ok bool) { return cli().Find() }

// CLIVersion runs the CLI at path with --version and returns the version
// it reports ("2.1.332" of "2.1.332 (Claude Code)").
func CLIVersion(path string) (string, error) {
	words, err := clitest.VersionWords(path)
	if err != nil {
		return "", err
	}
	return words[0], nil
}
