package claudetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
func (s *Session) seed(root string, opts Options) error {
	if err := writeFiles(s.dir, opts.Files); err != nil {
		return err
	}
	settings := baseSettings()
	if opts.RecordHooks {
		s.hooks = filepath.Join(root, "hooks")
		hookSettings, err := installHookRecorder(filepath.Join(root, "hook.sh"), s.hooks)
		if err != nil {
			return err
		}
		settings = merge(settings, hookSettings)
	}
	if err := writeJSON(filepath.Join(s.home, ".claude", "settings.json"), merge(settings, opts.Settings)); err != nil {
		return err
	}
	return writeJSON(filepath.Join(s.home, ".claude.json"), merge(claudeJSON(s.dir), opts.ClaudeJSON))
}

// writeFiles writes files under dir.
func writeFiles(dir string, files map[string]string) error {
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if !strings.HasPrefix(path, dir+string(filepath.Separator)) {
			return fmt.Errorf("write project file %q: outside the project dir", name)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("write project file %q: %w", name, err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return fmt.Errorf("write project file %q: %w", name, err)
		}
	}
	return nil
}

// writeJSON writes v as indented JSON, creating the parent dir.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// merge returns base with over laid on top: maps merge key by key, lists
// append (so extra hook entries join the recorder's), anything else in
// over replaces base's. Neither argument is modified.
func merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		switch ov := v.(type) {
		case map[string]any:
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = merge(bv, ov)
				continue
			}
		case []any:
			if bv, ok := out[k].([]any); ok {
				out[k] = append(append([]any(nil), bv...), ov...)
				continue
			}
		}
		out[k] = v
	}
	return out
}
