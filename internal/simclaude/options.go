package simclaude

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Defaults for Options.
const (
	DefaultWork             = 3 * time.Second
	DefaultLong             = 20 * time.Second
	DefaultIdleNotify       = 60 * time.Second
	DefaultPermissionNotify = 6 * time.Second
	DefaultAgentTime        = 5 * time.Second
	DefaultLimitReset       = 3 * time.Minute
	DefaultCols             = 200
	DefaultRows             = 50
)

// Options configure one simulated session.
type Options struct {
	In  *os.File // terminal input; os.Stdin when nil
	Out *os.File // terminal output; os.Stdout when nil

	// Work is how long an ordinary turn works before it replies (default 3s).
	Work time.Duration
	// Long is how long a turn whose prompt says "long" works (default 20s).
	Long time.Duration
	// IdleNotify is the idle time after Stop before Notification
	// idle_prompt (default 60s, Claude's messageIdleNotifThresholdMs).
	IdleNotify time.Duration
	// PermissionNotify is how long a dialog stays unanswered before
	// Notification permission_prompt (default 6s).
	PermissionNotify time.Duration
	// AgentTime is how long the background agent runs (default 5s).
	AgentTime time.Duration
	// LimitReset is how far ahead a usage limit resets (default 3m).
	LimitReset time.Duration

	// Look is the CLI the session looks like: LookClaude (the default),
	// LookCodex, LookCopilot or LookOpenCode. Only the screen, the commands, the hook
	// payloads and the keys differ; the turns are the same.
	Look string
	// AllowWrite is the Copilot CLI's --allow-tool write: file writes
	// (/init's) run without the permission prompt. It is the only
	// permission pattern the look models.
	AllowWrite bool

	// Permission is the OpenCode look's permission config for its bash
	// and edit tools: PermissionAllow (the default, as OpenCode's) or
	// PermissionAsk, which asks before each. It goes only with
	// LookOpenCode.
	Permission string

	Seed    int64  // seeds verbs, tips and ids; 0 picks a random seed
	LogPath string // append one JSON line per input event and turn boundary
	HookCmd string // shell command run for every hook event, payload on stdin
	Prompt  string // submitted at start, so that a turn is in progress at once
	Cwd     string // project directory shown and sent in payloads; default the working directory

	// Cols and Rows size the screen when Out is not a terminal (default 200x50).
	Cols, Rows int
}

// withDefaults fills zero fields.
func (o Options) withDefaults() (Options, error) {
	if o.In == nil {
		o.In = os.Stdin
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	setDefault(&o.Work, DefaultWork)
	setDefault(&o.Long, DefaultLong)
	setDefault(&o.IdleNotify, DefaultIdleNotify)
	setDefault(&o.PermissionNotify, DefaultPermissionNotify)
	setDefault(&o.AgentTime, DefaultAgentTime)
	setDefault(&o.LimitReset, DefaultLimitReset)
	if o.Look == "" {
		o.Look = LookClaude
	}
	if o.Cols <= 0 {
		o.Cols = DefaultCols
	}
	if o.Rows <= 0 {
		o.Rows = DefaultRows
	}
	if o.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("get working directory: %w", err)
		}
		o.Cwd = wd
	}
	return o, o.validate()
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d == 0 {
		*d = def
	}
}

// validate returns the first problem as a sentence.
func (o Options) validate() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"work", o.Work}, {"long", o.Long}, {"idle-notify", o.IdleNotify},
		{"permission-notify", o.PermissionNotify}, {"agent-time", o.AgentTime},
		{"limit-reset", o.LimitReset},
	} {
		if d.v < 0 {
			return fmt.Errorf("--%s must not be negative, got %s", d.name, d.v)
		}
	}
	switch o.Look {
	case LookClaude, LookCodex, LookCopilot, LookOpenCode:
	default:
		return fmt.Errorf("--look must be %s, %s, %s or %s, got %q", LookClaude, LookCodex, LookCopilot, LookOpenCode, o.Look)
	}
	if o.Permission != "" && o.Permission != PermissionAllow && o.Permission != PermissionAsk {
		return fmt.Errorf("--permission must be %s or %s, got %q", PermissionAllow, PermissionAsk, o.Permission)
	}
	if o.AllowWrite && o.Look != LookCopilot {
		return fmt.Errorf("--allow-tool goes only with --look %s", LookCopilot)
	}
	if o.Permission != "" && o.Look != LookOpenCode {
		return fmt.Errorf("--permission goes only with --look %s", LookOpenCode)
	}
	return nil
}

// errUsage reports a command line that did not parse; the flag package has
// already printed why.
var errUsage = errors.New("bad usage")

// parseArgs reads sim-claude's command line.
func parseArgs(args []string, stderr io.Writer) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("sim-claude", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.Work, "work", DefaultWork, "how long an ordinary turn works")
	fs.DurationVar(&o.Long, "long", DefaultLong, `how long a turn works when its prompt says "long"`)
	fs.DurationVar(&o.IdleNotify, "idle-notify", DefaultIdleNotify, "idle time after Stop before Notification idle_prompt")
	fs.DurationVar(&o.PermissionNotify, "permission-notify", DefaultPermissionNotify, "unanswered dialog time before Notification permission_prompt")
	fs.DurationVar(&o.AgentTime, "agent-time", DefaultAgentTime, "how long the background agent runs")
	fs.DurationVar(&o.LimitReset, "limit-reset", DefaultLimitReset, "how far ahead a usage limit resets")
	fs.StringVar(&o.Look, "look", "", "the CLI to look like: claude (the default), codex, copilot or opencode")
	fs.Func("allow-tool", "with --look copilot: the tools that run without asking; only write (file writes) is modelled", func(v string) error {
		if v != copilotAllowWrite {
			return fmt.Errorf("only %q is modelled, got %q", copilotAllowWrite, v)
		}
		o.AllowWrite = true
		return nil
	})
	fs.StringVar(&o.Permission, "permission", "", "with --look opencode: allow (the default) or ask before its bash and edit tools run")
	fs.Int64Var(&o.Seed, "seed", 0, "seed for verbs, tips and ids (0: random)")
	fs.StringVar(&o.LogPath, "log", "", "append input events and turn boundaries to this file as JSON lines")
	fs.StringVar(&o.HookCmd, "hook-cmd", "", "shell command to run for each hook event, with the payload on stdin")
	fs.StringVar(&o.Prompt, "prompt", "", "prompt to submit at start")
	fs.StringVar(&o.Cwd, "cwd", "", "project directory to show and report (default: the working directory)")
	fs.IntVar(&o.Cols, "cols", DefaultCols, "screen width when output is not a terminal")
	fs.IntVar(&o.Rows, "rows", DefaultRows, "screen height when output is not a terminal")
	if err := fs.Parse(args); err != nil {
		return o, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sim-claude: unexpected argument %q\n", fs.Arg(0))
		return o, errUsage
	}
	return o, nil
}

// Args is the command line that runs sim-claude with o (In and Out aside),
// for tests and the demo that start it as a child process. Zero and default
// fields are left out.
func (o Options) Args() []string {
	var args []string
	durations := []struct {
		name   string
		v, def time.Duration
	}{
		{"work", o.Work, DefaultWork}, {"long", o.Long, DefaultLong},
		{"idle-notify", o.IdleNotify, DefaultIdleNotify},
		{"permission-notify", o.PermissionNotify, DefaultPermissionNotify},
		{"agent-time", o.AgentTime, DefaultAgentTime}, {"limit-reset", o.LimitReset, DefaultLimitReset},
	}
	for _, d := range durations {
		if d.v != 0 && d.v != d.def {
			args = append(args, "--"+d.name, d.v.String())
		}
	}
	for _, s := range []struct{ name, v string }{
		{"log", o.LogPath}, {"hook-cmd", o.HookCmd}, {"prompt", o.Prompt}, {"cwd", o.Cwd},
		{"permission", o.Permission},
	} {
		if s.v != "" {
			args = append(args, "--"+s.name, s.v)
		}
	}
	if o.Look != "" && o.Look != LookClaude {
		args = append(args, "--look", o.Look)
	}
	if o.AllowWrite {
		args = append(args, "--allow-tool", copilotAllowWrite)
	}
	if o.Seed != 0 {
		args = append(args, "--seed", strconv.FormatInt(o.Seed, 10))
	}
	if o.Cols > 0 && o.Cols != DefaultCols {
		args = append(args, "--cols", strconv.Itoa(o.Cols))
	}
	if o.Rows > 0 && o.Rows != DefaultRows {
		args = append(args, "--rows", strconv.Itoa(o.Rows))
	}
	return args
}
