package claudetest

import (
	"path/filepath"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// FakeAPIKey is the ANTHROPIC_API_KEY a session runs with.
const FakeAPIKey = "sk-fake-0123456789abcdef"

// FakeOAuthToken is the CLAUDE_CODE_OAUTH_TOKEN of a session in OAuth mode.
const FakeOAuthToken = "sk-ant-oat-fake-0123456789abcdef"

// claudeJSON is the ~/.claude.json seed that skips every first-run dialog
// (docs/claude-code.md): onboarding (whose preflight ignores
// ANTHROPIC_BASE_URL and exits offline), the custom API key question (keyed
// by the key's last 20 characters), the auto-mode nudge, and the trust
// dialog of the project dir.
func claudeJSON(projectDir string) map[string]any {
	return map[string]any{
		"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{
			"approved": []any{FakeAPIKey[len(FakeAPIKey)-20:]},
			"rejected": []any{},
		},
		"hasSeenAutoDefaultNudge": true,
		"projects": map[string]any{
			projectDir: map[string]any{"hasTrustDialogAccepted": true},
		},
	}
}

// baseSettings is the ~/.claude/settings.json seed. Manual mode, because
// 2.1.328 defaults to auto mode, whose safety classifier runs server-side:
// against the fake every risky tool call would grow an extra dialog
// (docs/claude-code.md). Tips off, so the spinner's second row stays quiet.
func baseSettings() map[string]any {
	return map[string]any{
		"permissions":        map[string]any{"defaultMode": "default"},
		"spinnerTipsEnabled": false,
	}
}

// seed writes the project's files and claude's two config files, with
// the hook recorder when asked for.
func (s *Session) seed(opts Options) error {
	if err := clitest.WriteFiles(s.Dir(), opts.Files); err != nil {
		return err
	}
	settings := baseSettings()
	if opts.RecordHooks {
		script, err := s.RecordEvents()
		if err != nil {
			return err
		}
		settings = clitest.Merge(settings, hookSettings(clitest.ShellQuote(script)+" hook"))
	}
	if err := clitest.WriteJSON(filepath.Join(s.Home(), ".claude", "settings.json"), clitest.Merge(settings, opts.Settings)); err != nil {
		return err
	}
	return clitest.WriteJSON(filepath.Join(s.Home(), ".claude.json"), clitest.Merge(claudeJSON(s.Dir()), opts.ClaudeJSON))
}
