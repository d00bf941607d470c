package opencodetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// FakeAPIKey is the provider API key a session runs with; OpenCode sends
// it as X-Api-Key.
const FakeAPIKey = "fake-key"

// Model is the model a session asks for, as provider/model. It is in the
// model list built into 1.18.33 (`Claude Sonnet 4.5 (latest)` on screen),
// so nothing is fetched for it.
const Model = "anthropic/claude-sonnet-4-5"

// ModelName is how the screen names Model.
const ModelName = "Claude Sonnet 4.5 (latest)"

// AskPermissions is the permission config under which OpenCode asks before
// a command or a file write: its default allows both (docs/opencode.md,
// "Permission prompts"). Merge it with Options.Config.
var AskPermissions = map[string]any{"permission": map[string]any{"bash": "ask", "edit": "ask"}}

// Config is the config a session passes in OPENCODE_CONFIG_CONTENT: the
// fake as the anthropic provider's baseURL, with Model for the turns and
// the title request alike, no updates, no sharing.
func Config(baseURL string) map[string]any {
	return map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"autoupdate":  false,
		"share":       "disabled",
		"model":       Model,
		"small_model": Model,
		"provider": map[string]any{"anthropic": map[string]any{"options": map[string]any{
			"baseURL": baseURL + "/v1", "apiKey": FakeAPIKey,
		}}},
	}
}

// ProviderEnv is the environment that runs OpenCode against a fake
// Messages API with config (see Config) and keeps it off the network: no
// update, models fetch, LSP download or sharing, every proxy at a closed
// port. It sets no HOME.
func ProviderEnv(config map[string]any) ([]string, error) {
	data, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("encode OPENCODE_CONFIG_CONTENT: %w", err)
	}
	return append([]string{
		"OPENCODE_CONFIG_CONTENT=" + string(data),
		"OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_SHARE=1",
	}, clitest.NoProxyEnv()...), nil
}

// SeedConfigDir makes dir (an OpenCode config dir, such as
// ~/.config/opencode) an npm project whose dependencies are installed
// already: package.json and package-lock.json of the install's PluginDeps
// and a link to its node_modules. Without them OpenCode installs
// @opencode-ai/plugin from the registry at every start, and offline its
// plugins and TUI wait about two minutes for that to fail.
func SeedConfigDir(dir string) error {
	deps := PluginDeps()
	for _, name := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(deps, name))
		if err != nil {
			return fmt.Errorf("seed %s: %w (run scripts/install-opencode.sh)", dir, err)
		}
		if err := clitest.WriteFile(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	if err := os.Symlink(filepath.Join(deps, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		return fmt.Errorf("seed %s: %w", dir, err)
	}
	return nil
}

// seed writes the project's files, seeds the config dir and writes the
// recorder plugin when asked for.
func (s *Session) seed(opts Options) error {
	if err := clitest.WriteFiles(s.Dir(), opts.Files); err != nil {
		return err
	}
	if err := SeedConfigDir(s.configDir); err != nil {
		return err
	}
	if !opts.RecordEvents {
		return nil
	}
	return s.installRecorder()
}

// chmodExec makes a script the session wrote executable.
func chmodExec(path string) error {
	if err := os.Chmod(path, 0o700); err != nil {
		return fmt.Errorf("make %s executable: %w", path, err)
	}
	return nil
}
