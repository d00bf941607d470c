package fakeapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// errorKinds maps a status to the Anthropic error type and a default
// message. The messages are the ones the reference screens were made with,
// so Claude Code prints the same lines (docs/claude-code.md).
var errorKinds = map[int]struct{ typ, msg string }{
	400: {"invalid_request_error", "Invalid request (fake)"},
	401: {"authentication_error", "invalid x-api-key (fake)"},
	403: {"permission_error", "Permission denied (fake)"},
	404: {"not_found_error", "Not found (fake)"},
	413: {"request_too_large", "Request exceeds the maximum size (fake)"},
	429: {"rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit (fake)"},
	500: {"api_error", "Internal server error (fake)"},
	529: {"overloaded_error", "Overloaded (fake)"},
}

// errorKind returns the error type and message for a status.
func errorKind(status int, message string) (typ, msg string) {
	k := fakeserver.ErrorKind(errorKinds, status)
	if message != "" {
		k.msg = message
	}
	return k.typ, k.msg
}

// errorBody is the JSON of an API error, as the real API sends it.
func errorBody(status int, message, requestID string) map[string]any {
	typ, msg := errorKind(status, message)
	body := map[string]any{
		"type":  "error",
		"error": map[string]string{"type": typ, "message": msg},
	}
	if requestID != "" {
		body["request_id"] = requestID
	}
	return body
}

// writeError answers r's Status with an Anthropic-style error.
func (s *Server) writeError(w http.ResponseWriter, r *Reply) {
	id := s.b.NewID("req_fake")
	if r.UsageLimit != nil {
		setUsageLimitHeaders(w.Header(), r.UsageLimit, s.Clock.Now())
	}
	w.Header().Set("request-id", id)
	fakeserver.WriteJSON(w, r.Status, errorBody(r.Status, r.ErrorMessage, id)) // maps of strings always marshal
}

// setUsageLimitHeaders adds the unified rate limit headers of a rejected
// subscription request. Claude Code reads the representative claim to say
// which limit was hit and the reset (Unix seconds) for "resets 10:06pm".
func setUsageLimitHeaders(h http.Header, u *UsageLimit, now time.Time) {
	claim, short := u.Claim, "5h"
	if claim == "" {
		claim = "five_hour"
	}
	if claim == "seven_day" {
		short = "7d"
	}
	reset := u.ResetAt
	if reset.IsZero() {
		reset = now.Add(time.Hour)
	}
	epoch := strconv.FormatInt(reset.Unix(), 10)
	const p = "anthropic-ratelimit-unified-"
	h.Set(p+"status", "rejected")
	h.Set(p+"reset", epoch)
	h.Set(p+"representative-claim", claim)
	h.Set(p+short+"-status", "rejected")
	h.Set(p+short+"-reset", epoch)
	h.Set(p+short+"-utilization", "1.0")
}
