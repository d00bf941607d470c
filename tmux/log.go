package tmux

// Log keys, so that every line says the same thing the same way.
const (
	logKeySocket   = "socket"
	logKeySession  = "session"
	logKeyPane     = "pane"
	logKeyPID      = "pid"
	logKeyErr      = "err"
	logKeyReason   = "reason"
	logKeyFailures = "failures"
	logKeyRetryIn  = "retry_in"
	logKeyInterval = "interval"
)
