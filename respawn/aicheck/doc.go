// Package aicheck runs AI checks for package respawn: it asks a fresh
// `claude -p` whether a pane's text shows an idle Claude Code session
// (IDLE or WORKING) or a plan approval menu (PLAN_MODE or NOT_PLAN_MODE).
//
// It owns the check process from start to end: the prompt (sent on stdin,
// with the pane text fenced off as untrusted data), an empty temporary
// working directory, an environment stripped of the pane's markers with
// CODEMAN_CHECK=1 added so that codeman's own hook handler ignores the
// check, a process group killed as a whole on timeout or cancellation, a
// daemon-wide limit on concurrent checks, and the classification of what
// claude printed into a verdict, a usage limit or an error.
//
// It does not own cooldowns, backoff after errors or disabling a checker
// after repeated errors: the controller in package respawn does. It imports
// respawn for the Checker interface and its types, and must not import the
// tmux, screen, hooks or daemon packages. Like codeman, it runs on Unix
// only: it relies on process groups.
//
// Usage:
//
//	runner, err := aicheck.New(aicheck.Options{Logger: log})
//	if err != nil { ... } // errors.Is(err, respawn.ErrCheckerUnavailable) when claude is missing
//	res, err := runner.Check(ctx, respawn.CheckRequest{Kind: respawn.IdleCheck, Model: "haiku", ...})
package aicheck
