package opencodehooks

import (
	"errors"
	"fmt"
	"path/filepath"
)

// FileName is codeman's plugin in a plugins directory.
const FileName = "codeman.js"

// ConfigDir is OpenCode's global config directory: $XDG_CONFIG_HOME/opencode,
// else ~/.config/opencode.
func ConfigDir(env func(string) string) (string, error) {
	if dir := env("XDG_CONFIG_HOME"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("find XDG_CONFIG_HOME %s: %w", dir, err)
		}
		return filepath.Join(abs, "opencode"), nil
	}
	home := env("HOME")
	if home == "" {
		return "", errors.New("find OpenCode's config dir: HOME is not set")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("find OpenCode's config dir: %w", err)
	}
	return filepath.Join(abs, ".config", "opencode"), nil
}

// PluginPath is codeman's plugin of a config directory (the global one,
// or a project's .opencode).
func PluginPath(configDir string) string { return filepath.Join(configDir, "plugins", FileName) }

// ProjectConfigDir is a project's config directory (the project absolute).
func ProjectConfigDir(dir string) string { return filepath.Join(dir, ".opencode") }
