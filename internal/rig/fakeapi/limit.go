package fakeapi

// AutoContinueText starts the prompt Claude Code sends by itself once a
// usage limit it waited out has reset (its own continue, setting
// autoContinueAtUsageLimit, on by default): "Your claude.ai usage limit has
// reset. Continue the task you were working on when the limit was reached;
// do not repeat work that is already complete."
const AutoContinueText = "Your claude.ai usage limit has reset."

// LimitUntil answers every fresh user turn with the 429 of the usage limit
// u until u.ResetAt (on the server's Clock), as the real API does while a
// subscription is limited; from then on the other sources answer. Rules
// are tried in the order they were added, so add it before the rules it
// must hold back. Unlike other errors its 429 does not stick to a retry:
// a request resent after the reset goes through.
func (s *Server) LimitUntil(u UsageLimit) {
	s.HandleFunc(func(req Request) (Reply, bool) {
		if req.ToolResult || !s.Clock.Now().Before(u.ResetAt) {
			return Reply{}, false
		}
		return Reply{Status: 429, UsageLimit: &u, lapses: true}, true
	})
}
