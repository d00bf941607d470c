package copilothooks

import (
	"errors"
	"fmt"
	"path/filepath"
)

// FileName is the name of codeman's hooks file in a hooks directory.
const FileName = "codeman.json"

// Home returns COPILOT_HOME as Copilot finds it: $COPILOT_HOME made
// absolute, else ~/.copilot.
func Home(env func(string) string) (string, error) {
	if dir := env("COPILOT_HOME"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("find COPILOT_HOME %s: %w", dir, err)
		}
		return abs, nil
	}
	home := env("HOME")
	if home == "" {
		return "", errors.New("find Copilot home: HOME is not set")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("find Copilot home: %w", err)
	}
	return filepath.Join(abs, ".copilot"), nil
}

// HooksPath is codeman's hooks file of a Copilot home.
func HooksPath(home string) string { return filepath.Join(home, "hooks", FileName) }

// SettingsPath is the user's settings file of a Copilot home.
func SettingsPath(home string) string { return filepath.Join(home, "settings.json") }

// ProjectHooksPath is codeman's hooks file of a repository (its
// directory, absolute).
func ProjectHooksPath(dir string) string { return filepath.Join(dir, ".github", "hooks", FileName) }

// projectSettings are a repository's settings files, which may hold hooks
// and disableAllHooks too (`copilot config --repo`, `--local`).
func projectSettings(dir string) []string {
	return []string{
		filepath.Join(dir, ".github", "copilot", "settings.json"),
		filepath.Join(dir, ".github", "copilot", "settings.local.json"),
	}
}
