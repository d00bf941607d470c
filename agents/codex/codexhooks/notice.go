package codexhooks

// The model-switch menu Codex opens at a usage limit ("Approaching rate
// limits" / "Switch to … for lower credit usage?"): Enter switches the
// model, so codeman leaves it to a person, and an unattended Codex waits
// at every limit until someone answers it. Codex opens it unless
// config.toml turns it off in its [notice] table, which is also what the
// menu's "Keep current model (never show again)" writes.
const (
	NoticeTable      = "notice"
	NoticeModelNudge = "hide_rate_limit_model_nudge"
)

// The states of StatusReport.ModelNudge.
const (
	NudgeUnread = ""       // config.toml was not read
	NudgeShown  = "shown"  // the key is missing or not true: Codex opens the menu
	NudgeHidden = "hidden" // hide_rate_limit_model_nudge = true
)

// modelNudge reads the menu's setting from a decoded config.toml.
func modelNudge(doc map[string]any) string {
	if notice, ok := doc[NoticeTable].(map[string]any); ok && notice[NoticeModelNudge] == true {
		return NudgeHidden
	}
	return NudgeShown
}
