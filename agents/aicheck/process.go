//go:build unix

package aicheck

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// maxOutput bounds what is kept of each of the CLI's stdout and stderr; a
// verdict is two short lines (a few events from codex exec --json), and an
// error excerpt needs less.
const maxOutput = 64 << 10

// output is what one check process printed.
type output struct {
	stdout, stderr string
	exitCode       int    // -1 when killed by a signal
	state          string // "exit status 1", "signal: killed"
}

// runCLI runs the CLI at path (`claude -p`, `codex exec`) with prompt on
// stdin from a fresh empty directory, in its own process group, and
// returns what it printed. It fails when the CLI cannot start, times out
// after limit or ctx ends; then the whole group gets SIGTERM and, after
// the kill grace, SIGKILL.
func (r *Runner) runCLI(ctx context.Context, path, model, prompt string, limit time.Duration) (output, error) {
	// An empty directory keeps the check away from any project's
	// CLAUDE.md or AGENTS.md, settings and hooks, which would turn a check
	// into a session.
	dir, err := os.MkdirTemp("", "codeman-check-")
	if err != nil {
		return output{}, fmt.Errorf("make check dir: %w", err)
	}
	defer r.removeDir(dir)

	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var stdout, stderr cappedBuffer
	cmd := exec.CommandContext(runCtx, path, r.cli.args(model)...)
	cmd.Dir = dir
	cmd.Env = r.cli.env(childEnv(r.env, filepath.Dir(path)))
	// The prompt goes on stdin: as an argument it would show in ps and hit
	// E2BIG with a long capture.
	cmd.Stdin = strings.NewReader(prompt)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// Its own group, so that node and whatever the CLI starts die with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, syscall.SIGTERM) }
	// After the grace, exec kills the leader and closes the pipes a
	// straggler may hold; the group's SIGKILL below follows.
	cmd.WaitDelay = r.killGrace

	if err := cmd.Start(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return output{}, fmt.Errorf("%w: start %s: %v; set %s or install %s", respawn.ErrCheckerUnavailable, path, err, r.cli.pathKey, r.cli.product)
		}
		return output{}, fmt.Errorf("start %s: %w", r.cli.exe, err)
	}
	waitErr := cmd.Wait()
	// Nothing the CLI started may outlive the check. Errors only say the
	// group is already gone.
	_ = signalGroup(cmd.Process.Pid, syscall.SIGKILL)

	if err := ctx.Err(); err != nil {
		return output{}, fmt.Errorf("%s cancelled: %w", r.cli.command, err)
	}
	if err := runCtx.Err(); err != nil {
		return output{}, fmt.Errorf("%s timed out after %s: %w", r.cli.command, limit, err)
	}
	out := output{stdout: stdout.String(), stderr: stderr.String(), state: "exit status 0"}
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil, errors.Is(waitErr, exec.ErrWaitDelay):
		// ErrWaitDelay: the CLI exited 0 but a leftover child held its
		// output open; what it printed before is complete.
	case errors.As(waitErr, &exitErr):
		out.exitCode = exitErr.ExitCode()
		out.state = exitErr.String()
	default:
		return output{}, fmt.Errorf("wait for %s: %w", r.cli.exe, waitErr)
	}
	return out, nil
}

// claudeArgs are the check's arguments. --max-turns 1 makes a reply that
// tries to use a tool fail instead of running on.
func claudeArgs(model string) []string {
	return []string{"-p", "--model", model, "--output-format", "text", "--max-turns", "1"}
}

// signalGroup sends sig to the process group led by pid. A group that is
// gone already is not an error.
func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// removeDir removes a check's directory. A failure leaves an empty
// directory in the temp dir, worth a log line but not a failed check.
func (r *Runner) removeDir(dir string) {
	if err := os.RemoveAll(dir); err != nil {
		r.log.Warn("remove check dir", "dir", dir, "err", err)
	}
}

// cappedBuffer keeps the first maxOutput bytes written to it and drops the
// rest without failing the writer.
type cappedBuffer struct{ buf []byte }

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := maxOutput - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string { return string(b.buf) }
