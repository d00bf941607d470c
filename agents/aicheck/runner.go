package aicheck

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// DefaultMaxConcurrent is the number of checks a Runner may run at once.
// Each check is a Claude Code process of a few hundred MB.
const DefaultMaxConcurrent = 2

// killGrace is how long a check's process group gets between SIGTERM and
// SIGKILL after its timeout or cancellation.
const killGrace = 2 * time.Second

// ErrAlreadyChecking is returned by Check when a check of the same kind for
// the same pane is still running or queued.
var ErrAlreadyChecking = errors.New("already checking")

var _ respawn.Checker = (*Runner)(nil)

// Options configure a Runner. The zero value is usable.
type Options struct {
	// CLI is the agent CLI the checks run: ClaudeCode (the zero value),
	// Codex, Copilot or OpenCode.
	CLI CLI
	// ClaudePath is the claude executable (checks.claude_path). Empty looks
	// up "claude" on the PATH of Env. Only ClaudeCode uses it.
	ClaudePath string
	// CodexPath is the codex executable (checks.codex_path). Empty looks
	// up "codex" on the PATH of Env. Only Codex uses it.
	CodexPath string
	// CopilotPath is the copilot executable (checks.copilot_path). Empty
	// looks up "copilot" on the PATH of Env. Only Copilot uses it.
	CopilotPath string
	// OpenCodePath is the opencode executable (checks.opencode_path).
	// Empty looks up "opencode" on the PATH of Env. Only OpenCode uses it.
	OpenCodePath string
	// MaxConcurrent bounds the checks this Runner runs at once across all
	// panes; the rest queue. Default DefaultMaxConcurrent (2).
	MaxConcurrent int
	// Env is the base environment of every check, before the pane markers
	// are removed. Nil means os.Environ().
	Env []string
	// Logger receives one line per check. Nil discards.
	Logger *slog.Logger
}

// Runner runs the checks of one CLI: claude -p, codex exec, copilot or
// opencode run. It implements respawn.Checker and is safe for concurrent
// use by every pane's controller.
type Runner struct {
	cli       *cliSpec
	cliPath   string // as configured; "" means look up cli.exe on PATH
	env       []string
	log       *slog.Logger
	killGrace time.Duration

	slots  chan struct{} // one token per running check
	queued atomic.Int32  // checks waiting for a slot

	mu       sync.Mutex
	inflight map[inflightKey]bool
}

type inflightKey struct {
	pane string
	kind respawn.CheckKind
}

// New returns a Runner. It fails with an error wrapping
// respawn.ErrCheckerUnavailable when the executable of opts.CLI cannot be
// found.
func New(opts Options) (*Runner, error) {
	cli, err := opts.CLI.spec()
	if err != nil {
		return nil, err
	}
	if opts.MaxConcurrent < 0 {
		return nil, fmt.Errorf("max concurrent checks is %d, want at least 1", opts.MaxConcurrent)
	}
	if opts.MaxConcurrent == 0 {
		opts.MaxConcurrent = DefaultMaxConcurrent
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	path := opts.ClaudePath
	switch opts.CLI {
	case Codex:
		path = opts.CodexPath
	case Copilot:
		path = opts.CopilotPath
	case OpenCode:
		path = opts.OpenCodePath
	}
	r := &Runner{
		cli:       cli,
		cliPath:   path,
		env:       opts.Env,
		log:       opts.Logger,
		killGrace: killGrace,
		slots:     make(chan struct{}, opts.MaxConcurrent),
		inflight:  make(map[inflightKey]bool),
	}
	if _, err := r.findCLI(); err != nil {
		return nil, err
	}
	return r, nil
}

// Check runs one check and returns its verdict. It fails, never guesses, on
// a timeout, a cancellation, a non-zero exit or an answer that is not one
// of the kind's two verdicts. A usage or rate limit is a
// *respawn.UsageLimitError; a missing claude or codex wraps
// respawn.ErrCheckerUnavailable; a second check of the same pane and kind
// while one is pending is ErrAlreadyChecking.
func (r *Runner) Check(ctx context.Context, req respawn.CheckRequest) (res respawn.CheckResult, err error) {
	var queued time.Duration
	defer func() { r.logCheck(req, res, queued, err) }()

	if err := validateRequest(req); err != nil {
		return respawn.CheckResult{}, err
	}
	release, err := r.claim(req)
	if err != nil {
		return respawn.CheckResult{}, err
	}
	defer release()

	queueStart := time.Now()
	if err := r.acquireSlot(ctx); err != nil {
		return respawn.CheckResult{}, err
	}
	defer r.releaseSlot()
	queued = time.Since(queueStart)

	start := time.Now()
	res, err = r.run(ctx, req)
	res.Duration = time.Since(start)
	return res, err
}

// run executes the CLI for one request and classifies what it printed.
func (r *Runner) run(ctx context.Context, req respawn.CheckRequest) (respawn.CheckResult, error) {
	path, err := r.findCLI()
	if err != nil {
		return respawn.CheckResult{}, err
	}
	prompt := buildPrompt(r.cli, req.Kind, req.Text)
	limit := req.Limit
	if limit <= 0 {
		limit = defaultLimit(req.Kind)
	}
	out, err := r.runCLI(ctx, path, req.Model, prompt, limit)
	if err != nil {
		return respawn.CheckResult{}, err
	}
	return classify(r.cli, req.Kind, r.cli.decode(out), time.Now())
}

// defaultLimit is the timeout of a request that came without one.
func defaultLimit(kind respawn.CheckKind) time.Duration {
	if kind == respawn.PlanCheck {
		return respawn.DefaultPlanCheckTimeout
	}
	return respawn.DefaultIdleCheckTimeout
}
