package claude

// Detection design notes.
//
// Claude Code draws a full-screen TUI: rows are rewritten in place, a word
// can arrive in pieces between colour codes, and while reply text streams
// the spinner row is removed so that only the footer says "esc to
// interrupt". Detection therefore has two inputs with two jobs:
//
//	pane bytes ──▶ StreamDetector.Feed ──▶ ChunkFacts   when: visible output, token counter, hints
//	screen rows ──▶ Patterns.Classify   ──▶ ScreenFacts  what: working, finished, menus, limits
//
// The stream says when something changed; the rendered screen says what the
// pane shows. Neither decides alone: the controller combines them with hook
// signals, silence and AI checks.
//
// All patterns live in one table (builtinPatterns) that users extend from
// the config file. Each built-in pattern has a real screen in
// testdata/screens that it must match and traps it must not match. A screen
// pattern is tried only on the rows where its kind can appear:
//
//   - The prompt box (a ─ rule, the "❯" input row, a ─ rule) splits the
//     screen into the body above it and the footer under it. The box is on
//     screen while Claude works, so it is never evidence of idle.
//   - Working: the busy footer only under the box, the status line and the
//     API retry line only above it.
//   - Completion and background wait: the newest such row of the body
//     counts, and only when no prompt echo ("❯ text") follows it and the
//     footer is idle.
//   - Dialogs (plan menu, question, permission, other): Claude Code hides
//     the prompt box while a dialog is open, so they are looked for only
//     when the box is hidden. A plan menu needs two rows to agree: its title
//     and an accepting option under the "❯" selector, because codeman
//     answers it with Enter.
//   - API errors and usage limits: only in the latest turn (below the newest
//     prompt echo), so an old error does not outlive the next prompt; a
//     usage limit also in the footer ("⚠ Usage limit reached").
//
// User patterns from the config file are tried on the rows of their kind
// as above (kindRegion); a user working pattern on every row outside the
// prompt box.
//
// Built-in stream patterns are matched by small hand matchers that accept
// the same language as their regexp (a test keeps them in step); user
// stream patterns run as regexps.

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/codeman-dev/codeman/respawn"
)

// PatternKind says what a pattern's match is evidence of.
type PatternKind int

// The kinds of evidence a pattern can give.
const (
	// PatternWorking: Claude is busy (status line, busy footer, retry).
	PatternWorking PatternKind = iota + 1
	// PatternCompletion: a turn finished ("✻ Baked for 1m 11s").
	PatternCompletion
	// PatternBackgroundWait: the turn ended but background agents run.
	PatternBackgroundWait
	// PatternPlanMenu: the plan approval menu, the one dialog codeman accepts.
	PatternPlanMenu
	// PatternQuestion: an AskUserQuestion picker. A person must answer.
	PatternQuestion
	// PatternPermission: a tool permission prompt. A person must answer.
	PatternPermission
	// PatternDialog: any other dialog (trust, API key, limit menu).
	PatternDialog
	// PatternAPIError: the turn ended on an API error.
	PatternAPIError
	// PatternUsageLimit: a subscription usage limit was hit.
	PatternUsageLimit
)

var patternKindNames = [...]string{
	PatternWorking:        "working",
	PatternCompletion:     "completion",
	PatternBackgroundWait: "background_wait",
	PatternPlanMenu:       "plan_menu",
	PatternQuestion:       "question",
	PatternPermission:     "permission",
	PatternDialog:         "dialog",
	PatternAPIError:       "api_error",
	PatternUsageLimit:     "usage_limit",
}

func (k PatternKind) String() string {
	if k > 0 && int(k) < len(patternKindNames) {
		return patternKindNames[k]
	}
	return "unknown"
}

// ParsePatternKind returns the kind named s as in PatternSpec.Kind.
func ParsePatternKind(s string) (PatternKind, error) {
	for k, name := range patternKindNames {
		if k > 0 && name == s {
			return PatternKind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown kind %q (want one of %s)", s, strings.Join(patternKindNames[1:], ", "))
}

// Pattern is one entry of the detection table.
type Pattern struct {
	Name   string
	Kind   PatternKind
	Stream bool // matched on the ANSI-stripped output window rather than on screen rows
	Re     *regexp.Regexp
	Doc    string

	where region                              // rows a screen pattern is tried on
	lit   string                              // a substring of every match: rows without it are skipped
	find  func(b []byte, from int) (int, int) // hand matcher of a built-in stream pattern, same language as Re
	// The byte class find starts from and how far before the new text it
	// looks for it (anchors.go); anchorNone runs find on every chunk.
	anchor anchor
	reach  int
}

// Patterns is a compiled detection table: the built-in patterns followed by
// the user's. It is immutable and safe for concurrent use.
type Patterns struct {
	list       []Pattern
	screen     []int // indexes of screen patterns, table order
	streamWork []int // stream working patterns
	streamDone []int // stream completion patterns
	workRegexp []int // stream working patterns without a hand matcher
}

// List returns a copy of the table, built-in patterns first.
func (p *Patterns) List() []Pattern { return slices.Clone(p.list) }

// PatternError is a user pattern that cannot be compiled.
type PatternError struct {
	Name string
	Line int // config file line, 0 when unknown
	Err  error
}

func (e *PatternError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("pattern %q (line %d): %v", e.Name, e.Line, e.Err)
	}
	return fmt.Sprintf("pattern %q: %v", e.Name, e.Err)
}

func (e *PatternError) Unwrap() error { return e.Err }

// DefaultPatterns returns the built-in table, compiled once.
func DefaultPatterns() *Patterns { return defaultPatterns() }

var defaultPatterns = sync.OnceValue(func() *Patterns { return newPatterns(builtinPatterns()) })

// CompilePatterns returns the built-in table extended with the user's
// patterns. An unknown kind or scope, a bad or empty regexp and a name used
// twice are errors naming the pattern and its config line.
func CompilePatterns(user []respawn.PatternSpec) (*Patterns, error) {
	base := DefaultPatterns()
	if len(user) == 0 {
		return base, nil
	}
	list := slices.Clone(base.list)
	names := make(map[string]bool, len(list)+len(user)) // a set: a file may hold thousands of patterns
	for _, q := range list {
		names[q.Name] = true
	}
	for _, spec := range user {
		p, err := compileSpec(spec)
		if err != nil {
			return nil, err
		}
		if names[p.Name] {
			return nil, &PatternError{spec.Name, spec.Line, errors.New("name already used")}
		}
		names[p.Name] = true
		list = append(list, p)
	}
	return newPatterns(list), nil
}

func compileSpec(s respawn.PatternSpec) (Pattern, error) {
	fail := func(format string, args ...any) (Pattern, error) {
		return Pattern{}, &PatternError{s.Name, s.Line, fmt.Errorf(format, args...)}
	}
	if s.Name == "" {
		return fail("name is empty")
	}
	kind, err := ParsePatternKind(s.Kind)
	if err != nil {
		return fail("%w", err)
	}
	var stream bool
	switch s.Scope {
	case "", "screen":
	case "stream":
		stream = true
		if kind != PatternWorking && kind != PatternCompletion {
			return fail("scope stream is only for working and completion patterns")
		}
	default:
		return fail("unknown scope %q (want screen or stream)", s.Scope)
	}
	if s.Regexp == "" {
		return fail("regexp is empty")
	}
	re, err := regexp.Compile(s.Regexp)
	if err != nil {
		return fail("compile regexp: %w", err)
	}
	if re.MatchString("") {
		return fail("regexp %q matches an empty row", s.Regexp)
	}
	doc := "user pattern"
	if s.Line > 0 {
		doc = fmt.Sprintf("user pattern, config line %d", s.Line)
	}
	return Pattern{Name: s.Name, Kind: kind, Stream: stream, Re: re, Doc: doc}, nil
}

func newPatterns(list []Pattern) *Patterns {
	p := &Patterns{list: list}
	for i, q := range list {
		if q.where == regionDefault {
			list[i].where = kindRegion(q.Kind)
		}
		switch {
		case !q.Stream:
			p.screen = append(p.screen, i)
		case q.Kind == PatternWorking:
			p.streamWork = append(p.streamWork, i)
			if q.find == nil {
				p.workRegexp = append(p.workRegexp, i)
			}
		case q.Kind == PatternCompletion:
			p.streamDone = append(p.streamDone, i)
		}
	}
	return p
}

// Pieces shared by several built-in patterns.
const (
	// spinnerGlyphs are the frames of Claude Code's spinner; ✳ is the
	// frame some terminals get instead of ✢.
	spinnerGlyphs = `[·✢*✶✻✽✳]`
	// statusWord is the gerund of the status line ("Sublimating"), capped
	// so that a match fits the stream detector's look-back.
	statusWord = `\p{Lu}\p{L}{0,39}`
	// completionVerb is any capitalised word not ending in "ing" (Baked,
	// Sautéed, Worked...): a gerund there is a wait, not a finished turn.
	completionVerb = `\p{Lu}(?:\p{L}{0,38}[^\P{L}g]|\p{L}{0,37}[^\P{L}n]g|\p{L}{0,36}[^\P{L}i]ng)?`
	// turnDuration is "0s", "1m 11s" or "1h 2m 3s".
	turnDuration = `\d{1,4}[hms](?: \d{1,4}[hms]){0,3}`
	// hintSpace is the space after ⎿, which Claude Code writes as a normal
	// space and a U+00A0 NO-BREAK SPACE.
	hintSpace = `[ \x{a0}]+`
)

// builtinPatterns is the detection table. The doc of each pattern names
// the real screen it comes from (testdata/screens).
func builtinPatterns() []Pattern {
	re := regexp.MustCompile
	return []Pattern{
		// Stream patterns, on the ANSI-stripped output window.
		{Name: "status_line_stream", Kind: PatternWorking, Stream: true, find: findStatusLine,
			anchor: anchorEllipsis, reach: statusReach,
			Re:  re(spinnerGlyphs + ` ` + statusWord + `…`),
			Doc: "spinner glyph, capitalised gerund and ellipsis of the working status line: ✶ Sublimating…"},
		{Name: "busy_footer_stream", Kind: PatternWorking, Stream: true, find: findBusyFooter,
			anchor: anchorP, reach: busyReach,
			Re:  re(`esc to interrupt`),
			Doc: "footer while a turn or a tool runs: ⏸ manual mode on · esc to interrupt"},
		{Name: "api_retry_stream", Kind: PatternWorking, Stream: true, find: findAPIRetry,
			anchor: anchorY, reach: retryReach,
			Re:  re(`retrying in \d{1,4}s · attempt \d{1,3}/\d{1,3}`),
			Doc: "status line while an API call is retried: ✻ API error · retrying in 5s · attempt 1/10"},
		{Name: "braille_spinner_stream", Kind: PatternWorking, Stream: true, find: findBrailleSpinner,
			anchor: anchorBraille, reach: brailleReach,
			Re:  re(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⣾⣽⣻⢿⡿⣟⣯⣷]`),
			Doc: "braille spinners of older Claude Code versions and of tools run by Claude"},
		{Name: "circle_spinner_stream", Kind: PatternWorking, Stream: true, find: findCircleSpinner,
			anchor: anchorCircle, reach: circleReach,
			// A capital letter must follow: "◐ medium · /effort" is the idle
			// effort indicator of 2.1 (capture 46), not a spinner.
			Re:  re(`[◐◓◑◒] \p{Lu}`),
			Doc: "quarter-circle spinner of older versions followed by a status word: ◐ Working"},
		{Name: "completion_stream", Kind: PatternCompletion, Stream: true, find: findCompletion,
			anchor: anchorF, reach: completionReach,
			Re:  re(`✻ ` + completionVerb + ` for ` + turnDuration + `(?:[^\p{L}\p{N}]|$)`),
			Doc: "turn completion line of any verb: ✻ Churned for 0s · done 6:47 PM"},

		// Working, on screen rows.
		{Name: "status_line", Kind: PatternWorking, where: regionBody, lit: "…",
			Re:  re(`^` + spinnerGlyphs + ` ` + statusWord + `…`),
			Doc: "working status line above the prompt box: ✻ Sublimating… (32s) (captures 16-18, 43, 60, 62)"},
		{Name: "busy_footer", Kind: PatternWorking, where: regionFooter, lit: "esc to interrupt",
			Re:  re(`\besc to interrupt\b`),
			Doc: "footer under the prompt box while busy, the only sign while text streams (captures 16, 36)"},
		{Name: "api_retry", Kind: PatternWorking, where: regionBody, lit: " · retrying in ",
			Re:  re(`^` + spinnerGlyphs + ` .+ · retrying in \d+s · attempt \d+/\d+$`),
			Doc: "API retry status line: ✻ API error · retrying in 5s · attempt 1/10 (capture 34)"},

		// Turn end, on the newest status row of the transcript.
		{Name: "completion_line", Kind: PatternCompletion, where: regionBody, lit: " for ",
			Re:  re(`^✻ ` + completionVerb + ` for ` + turnDuration + `(?:[^\p{L}\p{N}].*)?$`),
			Doc: "turn completion line: ✻ Baked for 1m 11s · done 6:54 PM (captures 06, 19, 42)"},
		{Name: "background_wait", Kind: PatternBackgroundWait, where: regionBody, lit: " background ",
			Re:  re(`^✻ Waiting for (\d+) background (?:agent|task)s? to finish`),
			Doc: "turn ended with background agents running: ✻ Waiting for 1 background agent to finish (capture 48)"},

		// Plan approval: a title and an accepting option under ❯ must agree.
		{Name: "plan_ready", Kind: PatternPlanMenu, lit: "Ready to code?",
			Re:  re(`^\s*Ready to code\?$`),
			Doc: "title of the plan approval dialog (capture 32)"},
		{Name: "plan_proceed", Kind: PatternPlanMenu, lit: "Would you like to proceed?",
			Re:  re(`\bWould you like to proceed\?$`),
			Doc: "question of the plan approval dialog (capture 32)"},
		{Name: "plan_exit", Kind: PatternPlanMenu, lit: "Exit plan mode?",
			Re:  re(`^\s*Exit plan mode\?$`),
			Doc: "title of the exit-plan-mode dialog shown without a plan file (capture 30)"},
		{Name: "plan_accept_option", Kind: PatternPlanMenu, lit: "❯ ",
			Re: re(`^\s*❯ \d\. Yes, (?:and use auto mode|manually approve edits|and switch to default\b|` +
				`and auto-accept edits|and manually approve edits|and bypass permissions)`),
			Doc: "highlighted option that accepts a plan: ❯ 1. Yes, and use auto mode (captures 30, 32)"},

		// AskUserQuestion pickers.
		{Name: "question_footer", Kind: PatternQuestion, lit: "Enter to select · ",
			Re:  re(`^\s*Enter to select · `),
			Doc: "picker footer: Enter to select · ↑/↓ to navigate · Esc to cancel (captures 21, 23)"},
		{Name: "question_tabs", Kind: PatternQuestion, lit: "←",
			Re:  re(`^←\s+[☐☒✔] .*→$`),
			Doc: "tab bar of a multi-question picker: ←  ☐ Features  ☐ Language  ✔ Submit  → (captures 23-26)"},
		{Name: "question_header", Kind: PatternQuestion,
			Re:  re(`^ [☐☒] \S`),
			Doc: "header of a single-question picker: ☐ Database (capture 21)"},
		{Name: "question_review", Kind: PatternQuestion, lit: "Review your answers",
			Re:  re(`^\s*Review your answers$`),
			Doc: "last page of a multi-question picker (capture 26)"},

		// Tool permission prompts.
		{Name: "permission_proceed", Kind: PatternPermission, lit: "Do you want to proceed?",
			Re:  re(`^\s*Do you want to proceed\?$`),
			Doc: "Bash permission question (captures 14, 59, 66b)"},
		{Name: "permission_file", Kind: PatternPermission, lit: "Do you want to ",
			Re:  re(`^\s*Do you want to (?:create|make this edit to|overwrite) .+\?$`),
			Doc: "Write/Edit permission question: Do you want to create CLAUDE.md? (capture 41)"},
		{Name: "permission_footer", Kind: PatternPermission, lit: "Esc to cancel · Tab to amend",
			Re:  re(`^\s*Esc to cancel · Tab to amend`),
			Doc: "permission prompt footer (captures 14, 41, 59)"},
		{Name: "permission_approval", Kind: PatternPermission, lit: "requires approval",
			Re:  re(`^\s*This command requires approval$`),
			Doc: "Bash permission explanation (capture 14)"},

		// Other dialogs a person must answer.
		{Name: "trust_dialog", Kind: PatternDialog, lit: "trust",
			Re:  re(`Is this a project you created or one you trust\?|Do you trust the files in this folder\?`),
			Doc: "workspace trust dialog at start (capture 01)"},
		{Name: "api_key_dialog", Kind: PatternDialog, lit: "API key?",
			Re:  re(`^\s*Do you want to use this API key\?$`),
			Doc: "custom API key approval at start (capture 02)"},
		{Name: "auto_mode_nudge", Kind: PatternDialog, lit: "Make auto mode",
			Re:  re(`^\s*Make auto mode your default permission mode\?$`),
			Doc: "auto mode nudge at start (capture 10)"},
		{Name: "auto_mode_check", Kind: PatternDialog, lit: "Auto mode can't check",
			Re:  re(`^\s*Auto mode can['’]t check actions in this session$`),
			Doc: "auto mode safety check unavailable (capture 66)"},
		{Name: "limit_menu", Kind: PatternDialog, lit: "What do you want to do?",
			Re:  re(`^\s*What do you want to do\?$`),
			Doc: "weekly usage limit menu (capture 57)"},
		{Name: "dialog_footer", Kind: PatternDialog, lit: "Esc to cancel",
			Re:  re(`^\s*Enter to \S.* · Esc to cancel$`),
			Doc: "footer of any other dialog: Enter to confirm · Esc to cancel (captures 01, 02, 57, 66)"},

		// The latest turn failed.
		{Name: "api_error", Kind: PatternAPIError, lit: "API Error: ",
			Re:  re(`^● (API Error: .+)$`),
			Doc: "final API error of a turn: ● API Error: 529 Overloaded (captures 45, 47)"},
		{Name: "context_limit", Kind: PatternAPIError, lit: "Context limit reached",
			Re:  re(`^\s*⎿` + hintSpace + `(Context limit reached · .+)$`),
			Doc: "prompt too long: ⎿  Context limit reached · /compact or /clear to continue (capture 47-err400)"},
		{Name: "invalid_api_key", Kind: PatternAPIError, lit: "Invalid API key",
			Re:  re(`^\s*⎿` + hintSpace + `(Invalid API key · .+)$`),
			Doc: "authentication failed: ⎿  Invalid API key · Fix external API key (capture 47-err401)"},

		// Usage limits, also read by FindUsageLimit.
		{Name: "usage_limit_hit", Kind: PatternUsageLimit, lit: " · resets ",
			Re:  re(`\b(You['’]ve hit your [\w -]*limit · resets .+|You['’]re out of extra usage · resets .+)`),
			Doc: "limit message: You've hit your 5-hour limit · resets 10:06pm (UTC) (captures 55-58)"},
		{Name: "usage_limit_reached", Kind: PatternUsageLimit, lit: "Usage limit reached ",
			Re: re(`\b(Usage limit reached (?:again )?· (?:limit resets|continuing automatically at|set to continue automatically at) .+)`),
			Doc: "limit notice: ⚠ Usage limit reached · limit resets 10:06pm (capture 55); the banner of 2.1.328 " +
				"(· continuing automatically at 10:06pm · esc to cancel) and of 2.1.332 (· set to continue automatically at 1:56pm), " +
				"also after a limit hit again (Usage limit reached again · …)"},
		{Name: "usage_limit_legacy", Kind: PatternUsageLimit, lit: "limit ",
			Re: re(`\b(\d+-hour limit reached ∙ resets .+|Claude AI usage limit reached\|\d+|` +
				`Claude usage limit reached\. Your limit will reset at .+)`),
			Doc: "limit lines of older versions: 5-hour limit reached ∙ resets 3pm (derived captures 55d-*)"},
	}
}
