package aicheck

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// findCLI resolves the CLI's executable. It runs before every check too,
// so that a binary removed or replaced by an update is noticed: a missing
// one makes the controller disable checks with a reason instead of
// counting start failures.
func (r *Runner) findCLI() (string, error) {
	c := r.cli
	hint := "set " + c.pathKey + " or install " + c.product
	if r.cliPath == "" {
		path, ok := lookPath(c.exe, envValue(r.env, "PATH"))
		if !ok {
			return "", fmt.Errorf("%w: %s not found on PATH; %s", respawn.ErrCheckerUnavailable, c.exe, hint)
		}
		return path, nil
	}
	if !strings.Contains(r.cliPath, "/") {
		path, ok := lookPath(r.cliPath, envValue(r.env, "PATH"))
		if !ok {
			return "", fmt.Errorf("%w: %s %q not found on PATH; %s", respawn.ErrCheckerUnavailable, c.pathKey, r.cliPath, hint)
		}
		return path, nil
	}
	path, err := filepath.Abs(r.cliPath)
	if err == nil {
		_, err = exec.LookPath(path)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %s %s is not an executable (%v); %s", respawn.ErrCheckerUnavailable, c.pathKey, r.cliPath, err, hint)
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
