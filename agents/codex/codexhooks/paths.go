package codexhooks

import (
	"errors"
	"fmt"
	"path/filepath"
)

// File names inside CODEX_HOME.
const (
	hooksName  = "hooks.json"
	configName = "config.toml"
)

// Home returns CODEX_HOME as Codex resolves it: $CODEX_HOME made absolute
// with its symlinks resolved (Codex canonicalizes it and refuses one that
// does not exist), else ~/.codex as it is. The trust keys name the hooks
// file under this path, so it must be spelled as Codex spells it.
func Home(env func(string) string) (string, error) {
	if dir := env("CODEX_HOME"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("find CODEX_HOME %s: %w", dir, err)
		}
		resolved, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return "", fmt.Errorf("find CODEX_HOME: %w", err)
		}
		return resolved, nil
	}
	home := env("HOME")
	if home == "" {
		return "", errors.New("find Codex home: HOME is not set")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("find Codex home: %w", err)
	}
	return filepath.Join(abs, ".codex"), nil
}

// HooksPath is the hooks file of a Codex home.
func HooksPath(home string) string { return filepath.Join(home, hooksName) }

// ConfigPath is the config file of a Codex home, which holds the trust
// state.
func ConfigPath(home string) string { return filepath.Join(home, configName) }
