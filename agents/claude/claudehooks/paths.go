package claudehooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// SettingsPath returns the Claude Code settings file codeman's hooks go in:
// DIR/.claude/settings.local.json for a project (projectDir not empty),
// else $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json.
func SettingsPath(env func(string) string, projectDir string) (string, error) {
	if projectDir != "" {
		abs, err := filepath.Abs(projectDir)
		if err != nil {
			return "", fmt.Errorf("find project dir: %w", err)
		}
		if info, err := os.Stat(abs); err != nil || !info.IsDir() {
			return "", fmt.Errorf("project dir %s is not a directory", abs)
		}
		return filepath.Join(abs, ".claude", "settings.local.json"), nil
	}
	if dir := env("CLAUDE_CONFIG_DIR"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("find CLAUDE_CONFIG_DIR: %w", err)
		}
		return filepath.Join(abs, "settings.json"), nil
	}
	home := env("HOME")
	if home == "" {
		return "", errors.New("find settings: HOME is not set")
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}
