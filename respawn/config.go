package respawn

import "time"

// Config is the behaviour of one pane's controller: the [respawn] table of
// config.toml with a profile applied. Durations are wall-clock durations;
// in the file they are strings such as "10s". The toml tags are the keys
// of the file, which package config decodes into a Config.
type Config struct {
	// Agent is the coding agent in the pane: "auto" (recognized when the
	// pane is attached), "claude" or "codex". The core does not read it:
	// the daemon picks the Agent a controller gets by it. Default "auto".
	Agent string `toml:"agent"`
	// UpdatePrompt is typed first in every cycle.
	UpdatePrompt string `toml:"update_prompt"`
	// InterStepDelay is the pause before each step is typed. Default 1s.
	InterStepDelay time.Duration `toml:"inter_step_delay"`
	// SendClear sends /clear after the update step. Default true.
	SendClear bool `toml:"send_clear"`
	// SendInit sends /init after /clear. Default true.
	SendInit bool `toml:"send_init"`
	// KickstartPrompt, when not empty, is typed after /init when /init
	// started no work of its own.
	KickstartPrompt string `toml:"kickstart_prompt"`

	// CompletionConfirm is the output silence that confirms a turn's end
	// and each step's end. Default 10s.
	CompletionConfirm time.Duration `toml:"completion_confirm"`
	// NoOutputTimeout is the silence after which idle is assumed (or an AI
	// check asked) even without a completion line. Default 30s.
	NoOutputTimeout time.Duration `toml:"no_output_timeout"`

	// AutoAcceptPrompts accepts plan approval menus. Default true.
	AutoAcceptPrompts bool `toml:"auto_accept_prompts"`
	// AutoAcceptDelay is the silence before a plan menu is accepted.
	// Default 8s.
	AutoAcceptDelay time.Duration `toml:"auto_accept_delay"`

	// StuckDetection enables the watchdog that recovers a controller that
	// made no progress while the pane was silent. Default true.
	StuckDetection bool `toml:"stuck_detection"`
	// StuckWarning is the silent time without progress after which a
	// warning is logged. Default 5m.
	StuckWarning time.Duration `toml:"stuck_warning"`
	// StuckRecovery is the silent time without progress after which the
	// controller recovers. Default 10m.
	StuckRecovery time.Duration `toml:"stuck_recovery"`
	// MaxStuckRecoveries bounds recoveries in a row. Default 3.
	MaxStuckRecoveries int `toml:"max_stuck_recoveries"`

	// Duration ends the controller after this long. Zero runs until
	// detached. Default 0.
	Duration time.Duration `toml:"duration"`

	// ResumePrompt is typed once a usage limit has reset, or after
	// APIErrorBackoff following a failed turn, when Claude has not
	// continued on its own. Empty disables it. Default "continue".
	ResumePrompt string `toml:"resume_prompt"`
	// UsageLimitMargin is added to a usage limit's reset time before
	// anything is typed. Default 1m.
	UsageLimitMargin time.Duration `toml:"usage_limit_margin"`
	// APIErrorBackoff is how long a turn that ended on an API error is left
	// alone before ResumePrompt is typed. Default 5m.
	APIErrorBackoff time.Duration `toml:"api_error_backoff"`

	// AIIdleCheck configures the claude -p idle check.
	AIIdleCheck CheckConfig `toml:"ai_idle_check"`
	// AIPlanCheck configures the claude -p plan check.
	AIPlanCheck CheckConfig `toml:"ai_plan_check"`
}

// CheckConfig configures one kind of AI check.
type CheckConfig struct {
	Enabled    bool          `toml:"enabled"`
	Model      string        `toml:"model"`
	MaxContext int           `toml:"max_context"` // characters of pane text sent
	Timeout    time.Duration `toml:"timeout"`     // per check
	Cooldown   time.Duration `toml:"cooldown"`    // after a negative verdict
}

// The defaults of the original controller, in one block.
const (
	DefaultUpdatePrompt       = "write a brief progress summary to CLAUDE.md noting what you accomplished, then continue working."
	DefaultInterStepDelay     = 1 * time.Second
	DefaultCompletionConfirm  = 10 * time.Second
	DefaultNoOutputTimeout    = 30 * time.Second
	DefaultAutoAcceptDelay    = 8 * time.Second
	DefaultStuckWarning       = 5 * time.Minute
	DefaultStuckRecovery      = 10 * time.Minute
	DefaultMaxStuckRecoveries = 3
	DefaultResumePrompt       = "continue"
	DefaultUsageLimitMargin   = 1 * time.Minute
	DefaultAPIErrorBackoff    = 5 * time.Minute
	DefaultCheckModel         = "haiku"
	DefaultIdleCheckContext   = 16000
	DefaultIdleCheckTimeout   = 90 * time.Second
	DefaultIdleCheckCooldown  = 180 * time.Second
	DefaultPlanCheckContext   = 8000
	DefaultPlanCheckTimeout   = 60 * time.Second
	DefaultPlanCheckCooldown  = 30 * time.Second
)

// Internal timings of the original that are not configurable.
const (
	hookConfirmDelay     = 3 * time.Second  // silence after a Stop hook before idle is confirmed
	clearFallback        = 10 * time.Second // go on to /init when /clear shows nothing
	initGrace            = 3 * time.Second  // monitoring_init grace period
	stepSettle           = 2 * time.Second  // a step's last frames may follow the hook that ended it
	workingAbsence       = 8 * time.Second  // working patterns absent before the pre-filter passes
	idleCheckErrorBase   = 60 * time.Second // first backoff after an idle check error
	planCheckErrorBase   = 30 * time.Second // first backoff after a plan check error
	checkErrorBackoffCap = 5 * time.Minute
	maxCheckErrors       = 3 // consecutive errors that disable a checker
	sendRetries          = 3 // attempts of one step before the cycle is abandoned
	sendRetryDelay       = 2 * time.Second
	hookDialogExpiry     = 10 * time.Minute // a hook-announced dialog the screen no longer shows is forgotten after this
)

// DefaultConfig returns the defaults of every key.
func DefaultConfig() Config {
	return Config{
		Agent:              "auto",
		UpdatePrompt:       DefaultUpdatePrompt,
		InterStepDelay:     DefaultInterStepDelay,
		SendClear:          true,
		SendInit:           true,
		CompletionConfirm:  DefaultCompletionConfirm,
		NoOutputTimeout:    DefaultNoOutputTimeout,
		AutoAcceptPrompts:  true,
		AutoAcceptDelay:    DefaultAutoAcceptDelay,
		StuckDetection:     true,
		StuckWarning:       DefaultStuckWarning,
		StuckRecovery:      DefaultStuckRecovery,
		MaxStuckRecoveries: DefaultMaxStuckRecoveries,
		ResumePrompt:       DefaultResumePrompt,
		UsageLimitMargin:   DefaultUsageLimitMargin,
		APIErrorBackoff:    DefaultAPIErrorBackoff,
		AIIdleCheck: CheckConfig{
			Enabled:    true,
			Model:      DefaultCheckModel,
			MaxContext: DefaultIdleCheckContext,
			Timeout:    DefaultIdleCheckTimeout,
			Cooldown:   DefaultIdleCheckCooldown,
		},
		AIPlanCheck: CheckConfig{
			Enabled:    true,
			Model:      DefaultCheckModel,
			MaxContext: DefaultPlanCheckContext,
			Timeout:    DefaultPlanCheckTimeout,
			Cooldown:   DefaultPlanCheckCooldown,
		},
	}
}
