package screen

// Log keys, so that every line says the same thing the same way.
const (
	logKeyWindow   = "window"
	logKeyVersion  = "version"
	logKeyReason   = "reason"
	logKeyErr      = "err"
	logKeyFailures = "failures"
	logKeyRows     = "rows"
	logKeyHeight   = "height"
)
