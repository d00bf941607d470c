package aicheck

import (
	"context"
	"log/slog"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Log keys of the line written for each check.
const (
	logKeyKind     = "kind"
	logKeyPane     = "pane"
	logKeyModel    = "model"
	logKeyVerdict  = "verdict"
	logKeyReason   = "reason"
	logKeyError    = "err"
	logKeyDuration = "duration"
	logKeyQueued   = "queued"
)

// logCheck writes the one line of a finished check: Info with the verdict
// and reason, or Warn with the error.
func (r *Runner) logCheck(req respawn.CheckRequest, res respawn.CheckResult, queued time.Duration, err error) {
	attrs := []slog.Attr{
		slog.String(logKeyKind, req.Kind.String()),
		slog.String(logKeyPane, req.PaneID),
		slog.String(logKeyModel, req.Model),
	}
	level, msg := slog.LevelInfo, "ai check"
	if err != nil {
		level, msg = slog.LevelWarn, "ai check failed"
		attrs = append(attrs, slog.String(logKeyError, err.Error()))
	} else {
		attrs = append(attrs,
			slog.String(logKeyVerdict, string(res.Verdict)),
			slog.String(logKeyReason, res.Reason))
	}
	attrs = append(attrs, slog.Duration(logKeyDuration, res.Duration.Round(time.Millisecond)))
	if queued >= time.Millisecond {
		attrs = append(attrs, slog.Duration(logKeyQueued, queued.Round(time.Millisecond)))
	}
	r.log.LogAttrs(context.Background(), level, msg, attrs...)
}
