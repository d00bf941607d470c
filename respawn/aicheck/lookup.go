package aicheck

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// claudeName is the executable looked up on PATH when no path is configured.
const claudeName = "claude"

// findClaude resolves the claude executable. It runs before every check
// too, so that a binary removed or replaced by an update is noticed: a
// missing one makes the controller disable checks with a reason instead of
// counting start failures.
func (r *Runner) findClaude() (string, error) {
	if r.claudePath == "" {
		path, ok := lookPath(claudeName, envValue(r.env, "PATH"))
		if !ok {
			return "", fmt.Errorf("%w: claude not found on PATH; set checks.claude_path or install Claude Code", respawn.ErrCheckerUnavailable)
		}
		return path, nil
	}
	if !strings.Contains(r.claudePath, "/") {
		path, ok := lookPath(r.claudePath, envValue(r.env, "PATH"))
		if !ok {
			return "", fmt.Errorf("%w: checks.claude_path %q not found on PATH; set checks.claude_path or install Claude Code", respawn.ErrCheckerUnavailable, r.claudePath)
		}
		return path, nil
	}
	path, err := filepath.Abs(r.claudePath)
	if err == nil {
		_, err = exec.LookPath(path)
	}
	if err != nil {
		return "", fmt.Errorf("%w: checks.claude_path %s is not an executable (%v); set checks.claude_path or install Claude Code", respawn.ErrCheckerUnavailable, r.claudePath, err)
	}
	return path, nil
}

// lookPath finds name in the directories of pathList, the PATH of the
// checks' environment rather than the daemon's own. Relative entries are
// skipped: the daemon's working directory is no place to find programs in.
func lookPath(name, pathList string) (string, bool) {
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		path := filepath.Join(dir, name)
		if _, err := exec.LookPath(path); err == nil {
			return path, true
		}
	}
	return "", false
}
