package codextest

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/BurntSushi/toml"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// FakeAPIKey is the API key a session runs with, in the environment
// variable the fake provider's env_key names.
const FakeAPIKey = "sk-fake-0123456789abcdef"

// apiKeyEnv is that variable.
const apiKeyEnv = "CODEMAN_FAKE_OPENAI_KEY"

// Model is the model a session asks for. It is one of the models Codex
// 0.171.0 knows without asking the network, with plain function tools
// (exec_command, apply_patch) rather than code mode; its upgrade notice is
// marked as seen in the seed.
const Model = "gpt-5.5"

// providerID names the fake model provider in config.toml.
const providerID = "fakeopenai"

// baseConfig is the config.toml seed (docs/codex.md, "Running it offline"):
// the fake as a custom Responses provider with an API key from the
// environment and one retry, so an API error shows within a second; no
// update check, analytics or shared background server; the project
// trusted; the first-run notices (screen reader detection, the model
// upgrade) marked done; tips off so the transcript stays quiet. Full
// access with on-request approvals: Codex needs no sandbox helper
// (bubblewrap), whose absence would add a startup warning, and still asks
// before a command that requests escalation.
func baseConfig(baseURL, projectDir string) map[string]any {
	return map[string]any{
		"model":                       Model,
		"model_provider":              providerID,
		"approval_policy":             "on-request",
		"sandbox_mode":                "danger-full-access",
		"check_for_update_on_startup": false,
		"model_providers": map[string]any{providerID: map[string]any{
			"name":                "Fake OpenAI",
			"base_url":            baseURL,
			"env_key":             apiKeyEnv,
			"wire_api":            "responses",
			"request_max_retries": 1,
			"stream_max_retries":  1,
		}},
		"analytics": map[string]any{"enabled": false},
		"features":  map[string]any{"daemon_auto_start": false},
		"tui": map[string]any{
			"screen_reader_detection_done": true,
			"show_tooltips":                false,
		},
		"notice":   map[string]any{"model_migrations": map[string]any{Model: "gpt-6-sol"}},
		"projects": map[string]any{projectDir: map[string]any{"trust_level": "trusted"}},
	}
}

// seed writes the project's files, the recorder and hooks.json when asked
// for, and config.toml.
func (s *Session) seed(opts Options) error {
	if err := clitest.WriteFiles(s.Dir(), opts.Files); err != nil {
		return err
	}
	config := baseConfig(s.api.BaseURL(), s.Dir())
	if opts.RecordHooks || opts.RecordNotify {
		script, err := s.RecordEvents()
		if err != nil {
			return err
		}
		if opts.RecordHooks {
			path := filepath.Join(s.codexHome, "hooks.json")
			hooks, state, err := hooksFile(path, clitest.ShellQuote(script)+" hook")
			if err != nil {
				return err
			}
			if err := clitest.WriteJSON(path, hooks); err != nil {
				return err
			}
			config = clitest.Merge(config, map[string]any{"hooks": map[string]any{"state": state}})
		}
		if opts.RecordNotify {
			config["notify"] = []any{script, "notify"}
		}
	}
	return writeTOML(filepath.Join(s.codexHome, "config.toml"), clitest.Merge(config, opts.Config))
}

// writeTOML writes v as TOML, creating the parent dir.
func writeTOML(path string, v map[string]any) error {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(v); err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return clitest.WriteFile(path, b.Bytes())
}
