package fakeopenai

import (
	"net/http"
	"strconv"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// errorKind is the type, code and default message of an API error.
type errorKind struct{ typ, code, msg string }

// errorKinds maps a status to the OpenAI error it stands for. A 503 says
// server_is_overloaded, the one code Codex reports as an overload rather
// than an unexpected status (docs/codex.md).
var errorKinds = map[int]errorKind{
	400: {"invalid_request_error", "", "Invalid request (fake)"},
	401: {"invalid_request_error", "invalid_api_key", "Incorrect API key provided (fake)"},
	403: {"invalid_request_error", "unsupported_country_region_territory", "Forbidden (fake)"},
	404: {"invalid_request_error", "", "Not found (fake)"},
	429: {"requests", "rate_limit_exceeded", "Rate limit reached for requests (fake)"},
	500: {"server_error", "", "The server had an error while processing your request (fake)"},
	503: {"service_unavailable_error", "server_is_overloaded", "The engine is currently overloaded (fake)"},
}

// kind returns the error of a status, with message in place of the
// default when not empty.
func kind(status int, message string) errorKind {
	k := fakeserver.ErrorKind(errorKinds, status)
	if message != "" {
		k.msg = message
	}
	return k
}

// errorBody is the JSON of an API error, as the real API sends it; a
// usage limit adds the plan and the reset (Unix seconds) Codex reads.
func errorBody(r *Reply, now time.Time) map[string]any {
	k := kind(r.Status, r.ErrorMessage)
	e := map[string]any{"type": k.typ, "message": k.msg, "param": nil, "code": nil}
	if k.code != "" {
		e["code"] = k.code
	}
	if u := r.UsageLimit; u != nil && r.Status == http.StatusTooManyRequests {
		reset := u.resetAt(now)
		e["type"] = "usage_limit_reached"
		e["code"] = nil
		if r.ErrorMessage == "" {
			e["message"] = "The usage limit has been reached (fake)"
		}
		e["plan_type"] = u.plan()
		e["resets_at"] = reset.Unix()
		e["resets_in_seconds"] = max(int64(reset.Sub(now).Seconds()), 0)
	}
	return map[string]any{"error": e}
}

// writeError answers r's Status with an OpenAI-style error.
func (s *Server) writeError(w http.ResponseWriter, r *Reply) {
	now := s.Clock.Now()
	if r.UsageLimit != nil && r.Status == http.StatusTooManyRequests {
		setUsageLimitHeaders(w.Header(), r.UsageLimit, now)
	}
	w.Header().Set("x-request-id", s.b.NewID("req_fake"))
	fakeserver.WriteJSON(w, r.Status, errorBody(r, now)) // maps of plain values always marshal
}

// Rate limit windows as the ChatGPT backend reports them: 5 hours and a
// week, in minutes.
const (
	primaryWindowMinutes   = 300
	secondaryWindowMinutes = 10080
)

// setUsageLimitHeaders adds the x-codex-* rate limit headers of a rejected
// request: the used-up window at 100 percent, the other at 40, each with
// its reset (Unix seconds).
func setUsageLimitHeaders(h http.Header, u *UsageLimit, now time.Time) {
	reset := u.resetAt(now)
	primary, secondary := "100", "40"
	primaryReset, secondaryReset := reset, now.Add(72*time.Hour)
	if u.Weekly {
		primary, secondary = "40", "100"
		primaryReset, secondaryReset = now.Add(2*time.Hour), reset
	}
	h.Set("x-codex-primary-used-percent", primary)
	h.Set("x-codex-primary-window-minutes", strconv.Itoa(primaryWindowMinutes))
	h.Set("x-codex-primary-reset-at", strconv.FormatInt(primaryReset.Unix(), 10))
	h.Set("x-codex-secondary-used-percent", secondary)
	h.Set("x-codex-secondary-window-minutes", strconv.Itoa(secondaryWindowMinutes))
	h.Set("x-codex-secondary-reset-at", strconv.FormatInt(secondaryReset.Unix(), 10))
}

// resetAt returns when the limit resets, an hour from now by default.
func (u *UsageLimit) resetAt(now time.Time) time.Time {
	if u.ResetAt.IsZero() {
		return now.Add(time.Hour)
	}
	return u.ResetAt
}

// plan returns the plan type, "plus" by default.
func (u *UsageLimit) plan() string {
	if u.PlanType == "" {
		return "plus"
	}
	return u.PlanType
}
