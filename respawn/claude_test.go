package respawn_test

import (
	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/respawn"
)

// The package's own tests read Claude Code's screens and output with
// Claude Code's reader (export_test.go).
func init() { respawn.UseClaude(claude.DefaultPatterns()) }
