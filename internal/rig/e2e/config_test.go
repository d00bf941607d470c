package e2e

import (
	"fmt"
	"time"
)

// What codeman types. They are the test's own texts, so that the fake
// API's request log and the hook log tell them from anything Claude Code
// sends by itself.
const (
	updatePrompt    = "e2e update: note what you did in one line, then go on."
	kickstartPrompt = "e2e kickstart: pick the next task and start it."
	resumePrompt    = "e2e resume: carry on where the error stopped you."
)

// initPrompt starts the prompt Claude Code sends for /init
// (docs/claude-code.md).
const initPrompt = "Please analyze this codebase and create a CLAUDE.md file"

// The timings of testConfig, short so a scenario takes seconds.
const (
	completionConfirm = 2 * time.Second
	noOutputTimeout   = 8 * time.Second
	interStepDelay    = 300 * time.Millisecond
	autoAcceptDelay   = time.Second
	apiErrorBackoff   = 20 * time.Second // the least respawn accepts is 10s
	// usageLimitMargin ends codeman's wait 5 s after a usage limit's
	// reset, well before Claude Code's own continue (30 to 90 s after
	// it), so the limit scenarios always meet the race that continue makes.
	usageLimitMargin  = 5 * time.Second
	idleCheckCooldown = 12 * time.Second
	idleCheckTimeout  = 30 * time.Second
	// hookWindow is respawn's fixed silence after a Stop hook before idle
	// is confirmed.
	hookWindow = 3 * time.Second
)

// aiCheckProfile is the profile of the AI idle check scenario.
const aiCheckProfile = "aicheck"

// testConfig returns config.toml of every scenario's daemon: short
// timings, AI checks off except in the aicheck profile, and the real CLI
// as the checks' claude.
func testConfig(claudePath string) string {
	return fmt.Sprintf(`# codeman config of the end-to-end tests.
[respawn]
update_prompt = %q
kickstart_prompt = %q
resume_prompt = %q
completion_confirm = %q
no_output_timeout = %q
inter_step_delay = %q
auto_accept_delay = %q
api_error_backoff = %q
usage_limit_margin = %q

[respawn.ai_idle_check]
enabled = false

[respawn.ai_plan_check]
enabled = false

[profile.%s.ai_idle_check]
enabled = true
cooldown = %q
timeout = %q

[checks]
claude_path = %q
max_concurrent = 1
`, updatePrompt, kickstartPrompt, resumePrompt,
		completionConfirm, noOutputTimeout, interStepDelay, autoAcceptDelay, apiErrorBackoff, usageLimitMargin,
		aiCheckProfile, idleCheckCooldown, idleCheckTimeout, claudePath)
}
