package aicheck

import (
	"path/filepath"
	"strings"
)

// checkMarker tells codeman's hook handler that the Claude Code process
// it runs under is an AI check, whose hook events must not become markers.
const checkMarker = "CODEMAN_CHECK=1"

// paneVars bind a process to the pane it was started from, or to the
// Claude Code session running there. The daemon inherits them when it is
// started from inside a pane, and a check must not: its hooks would write
// markers for that pane, and Claude Code would take it for a child of the
// session (no transcript, IDE port reused).
var paneVars = map[string]bool{
	"TMUX":                      true, // tmux socket of the caller's client
	"TMUX_PANE":                 true,
	"STY":                       true, // GNU screen session
	"WINDOW":                    true, // GNU screen window
	"CLAUDECODE":                true, // set by Claude Code in its children
	"CLAUDE_CODE_ENTRYPOINT":    true,
	"CLAUDE_CODE_SSE_PORT":      true, // IDE integration port of the running session
	"CLAUDE_CODE_CHILD_SESSION": true, // disables the child's transcript (trusty-tools PR #4475)
	"CLAUDE_PROJECT_DIR":        true, // hook environment of the running session
	"CLAUDE_ENV_FILE":           true,
}

// childEnv returns base without the pane markers and codeman's own
// variables, plus CODEMAN_CHECK=1, with claudeDir first on PATH: an npm
// install's claude is a `#!/usr/bin/env node` script whose node sits in
// the same directory (nvm), which the daemon's PATH may lack.
// HOME, PATH, ANTHROPIC_* and the other auth and config variables stay.
func childEnv(base []string, claudeDir string) []string {
	env := make([]string, 0, len(base)+2)
	hasPath := false
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case paneVars[name], strings.HasPrefix(name, "CODEMAN_"):
			continue
		case name == "PATH":
			hasPath = true
			kv = "PATH=" + prependDir(claudeDir, value)
		}
		env = append(env, kv)
	}
	if !hasPath {
		env = append(env, "PATH="+claudeDir)
	}
	return append(env, checkMarker)
}

// prependDir puts dir first in the PATH list unless it is already there.
func prependDir(dir, pathList string) string {
	for _, d := range filepath.SplitList(pathList) {
		if d == dir {
			return pathList
		}
	}
	if pathList == "" {
		return dir
	}
	return dir + string(filepath.ListSeparator) + pathList
}

// envValue returns the last value of name in env, as exec does.
func envValue(env []string, name string) string {
	value := ""
	for _, kv := range env {
		if n, v, ok := strings.Cut(kv, "="); ok && n == name {
			value = v
		}
	}
	return value
}
