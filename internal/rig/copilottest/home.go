package copilottest

import (
	"path/filepath"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// FakeAPIKey is the provider API key a session runs with; Copilot sends it
// as a bearer token.
const FakeAPIKey = "fake-key"

// Model is the model a session asks for. BYOK mode needs one named; Copilot
// asks the provider for no model list.
const Model = "gpt-5.5"

// seed writes the project's files, config.json with the project trusted
// unless opts.Untrusted, the recorder's hooks file when asked for, and
// settings.json when opts.Settings has any.
func (s *Session) seed(opts Options) error {
	if err := clitest.WriteFiles(s.Dir(), opts.Files); err != nil {
		return err
	}
	if !opts.Untrusted {
		// What "2. Yes, and remember this folder" writes: the trust
		// dialog is not shown (docs/copilot.md, "First start").
		config := map[string]any{"trustedFolders": []any{s.Dir()}}
		if err := clitest.WriteJSON(filepath.Join(s.copilotHome, "config.json"), config); err != nil {
			return err
		}
	}
	if opts.Settings != nil {
		if err := clitest.WriteJSON(filepath.Join(s.copilotHome, "settings.json"), opts.Settings); err != nil {
			return err
		}
	}
	if opts.RecordHooks {
		script, err := s.RecordEvents()
		if err != nil {
			return err
		}
		if err := clitest.WriteJSON(filepath.Join(s.copilotHome, "hooks", "rec.json"), hooksFile(clitest.ShellQuote(script)+" hook")); err != nil {
			return err
		}
	}
	return nil
}
