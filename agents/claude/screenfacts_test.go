package claude

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
)

// The -update flag may be declared by another test file of this package
// as well; package variables initialise before init functions run.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const screenDir = "testdata/screens"

// screenFixture reads a capture-pane text file as a Screen.
func screenFixture(t testing.TB, name string) respawn.Screen {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(screenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	return respawn.Screen{Lines: lines, Width: 200, Height: len(lines)}
}

// screenFixtureNames lists the fixture files with the given extension.
func screenFixtureNames(t testing.TB, ext string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(screenDir, "*"+ext))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no %s fixtures in %s: %v", ext, screenDir, err)
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names
}

// withRows returns a copy of s with rows replaced: row index -> text.
func withRows(s respawn.Screen, rows map[int]string) respawn.Screen {
	lines := slices.Clone(s.Lines)
	for r, text := range rows {
		lines[r] = text
	}
	s.Lines = lines
	return s
}

// describeFacts renders facts as one golden line.
func describeFacts(f respawn.ScreenFacts) string {
	var b []string
	flag := func(on bool, name string) {
		if on {
			b = append(b, name)
		}
	}
	flag(f.Working, "working")
	flag(f.Completion, "completion")
	if f.BackgroundWait > 0 {
		b = append(b, fmt.Sprintf("background_wait=%d", f.BackgroundWait))
	}
	flag(f.PlanMenu, "plan_menu")
	flag(f.Question, "question")
	flag(f.Permission, "permission")
	if f.Dialog {
		b = append(b, "dialog="+f.DialogName)
	}
	flag(f.PromptBox, "prompt_box")
	if f.Input != "" {
		b = append(b, fmt.Sprintf("input=%q", f.Input))
	}
	if f.APIError != "" {
		b = append(b, fmt.Sprintf("api_error=%q", f.APIError))
	}
	if f.UsageLimit != "" {
		b = append(b, fmt.Sprintf("usage_limit=%q", f.UsageLimit))
	}
	if f.AutoContinue != respawn.AutoContinueNone {
		b = append(b, "auto_continue="+f.AutoContinue.String())
	}
	if f.Tokens >= 0 {
		b = append(b, fmt.Sprintf("tokens=%d", f.Tokens))
	}
	if len(b) == 0 {
		return "-"
	}
	return strings.Join(b, " ")
}

// describeChunk renders what the stream detector reads from a whole .ansi
// file as one golden line.
func describeChunk(f respawn.ChunkFacts) string {
	s := fmt.Sprintf("visible=%d", f.Visible)
	if f.Working {
		s += " working"
	}
	if f.Completion {
		s += " completion"
	}
	if f.Tokens >= 0 {
		s += fmt.Sprintf(" tokens=%d", f.Tokens)
	}
	return s
}

// TestClassify_Golden walks every fixture: .txt screens through Classify,
// .ansi captures through a StreamDetector, and compares with
// testdata/screens/facts.golden.
func TestClassify_Golden(t *testing.T) {
	p := DefaultPatterns()
	var got []string
	for _, name := range screenFixtureNames(t, ".txt") {
		got = append(got, name+"\t"+describeFacts(p.Classify(screenFixture(t, name))))
	}
	for _, name := range screenFixtureNames(t, ".ansi") {
		data, err := os.ReadFile(filepath.Join(screenDir, name))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, name+"\t"+describeChunk(NewStreamDetector(p).Feed(data)))
	}
	golden := filepath.Join(screenDir, "facts.golden")
	if updateGolden() {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(want) != len(got) {
		t.Errorf("golden file has %d lines, fixtures give %d (run with -update and review)", len(want), len(got))
	}
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			t.Errorf("facts differ:\n got %s\nwant %s", got[i], want[i])
		}
	}
}

// screenPatternFixtures names, for every built-in screen pattern, real
// screens where Classify must report it as evidence.
var screenPatternFixtures = map[string][]string{
	"status_line":         {"05-just-submitted.txt", "16-working-spinner-5s.txt", "18-working-spinner-30s.txt", "43-thinking-wait.txt", "52-noaltscreen-streaming.txt", "60-bash-running.txt", "62-queued-message-while-busy.txt", "67-custom-spinner-verb.txt"},
	"busy_footer":         {"05-just-submitted.txt", "16-working-spinner-5s.txt", "34-err429-retrying.txt", "36-streaming-text.txt", "52-noaltscreen-streaming.txt", "62-queued-message-while-busy.txt"},
	"api_retry":           {"34-err429-retrying.txt"},
	"completion_line":     {"06-reply-done.txt", "07-bash-auto-mode.txt", "19-after-70s-reply.txt", "22-askq-after-2.txt", "40-after-init.txt", "42-init-done.txt", "53-noaltscreen-done.txt", "61-bash-finished.txt", "v2.1.332-monitor-running.txt", "v2.1.332-usage-limit-continued.txt"},
	"background_wait":     {"48-subagent-running.txt"},
	"plan_ready":          {"32-plan-approval-prompt.txt", "32b-plan-approval-prompt-full.txt"},
	"plan_proceed":        {"32-plan-approval-prompt.txt", "32b-plan-approval-prompt-full.txt"},
	"plan_exit":           {"30-exitplan-in-planmode.txt"},
	"plan_accept_option":  {"30-exitplan-in-planmode.txt", "32-plan-approval-prompt.txt"},
	"question_footer":     {"21-askuserquestion.txt", "23-askuserquestion-multi-q1.txt", "25-askmulti-q2.txt"},
	"question_tabs":       {"23-askuserquestion-multi-q1.txt", "24-askmulti-q1-two-checked.txt", "26-askmulti-submit-tab.txt"},
	"question_header":     {"21-askuserquestion.txt"},
	"question_review":     {"26-askmulti-submit-tab.txt"},
	"permission_proceed":  {"14-bash-permission-prompt.txt", "59-bash-permission-sleep.txt", "66b-auto-mode-no-classifier-dialog.txt"},
	"permission_file":     {"41-init-write-permission.txt"},
	"permission_footer":   {"14-bash-permission-prompt.txt", "14b-bash-permission-prompt-after-10s.txt", "41-init-write-permission.txt", "59-bash-permission-sleep.txt"},
	"permission_approval": {"14-bash-permission-prompt.txt"},
	"trust_dialog":        {"01-dialog-a.txt", "01-trust-dialog-yes-selected.txt"},
	"api_key_dialog":      {"02-after-trust.txt"},
	"auto_mode_nudge":     {"10-idle-manual-mode.txt"},
	"auto_mode_check":     {"66-auto-mode-rmbash.txt"},
	"limit_menu":          {"57-oauth-weekly-limit.txt", "v2.1.332-weekly-limit-menu.txt", "v2.1.332-usage-limit-menu.txt"},
	"dialog_footer":       {"01-dialog-a.txt", "02-after-trust.txt", "57-oauth-weekly-limit.txt", "66-auto-mode-rmbash.txt", "v2.1.332-weekly-limit-menu.txt"},
	"api_error":           {"45-stream-error-event.txt", "47-err429-final-max-retries-1.txt", "47-err500-final-max-retries-1.txt", "47-err529-final-max-retries-1.txt", "47-usagelimit-final-max-retries-1.txt"},
	"context_limit":       {"47-err400-final-max-retries-1.txt"},
	"invalid_api_key":     {"47-err401-final-max-retries-1.txt"},
	"usage_limit_hit":     {"55-oauth-usage-limit.txt", "56-oauth-usage-limit-esc.txt", "57-oauth-weekly-limit.txt", "58-oauth-weekly-limit-after-1.txt", "v2.1.332-usage-limit-armed.txt", "v2.1.332-weekly-limit-menu.txt"},
	"usage_limit_reached": {"55-oauth-usage-limit.txt", "v2.1.332-usage-limit-armed.txt", "v2.1.332-usage-limit-reset.txt", "v2.1.332-usage-limit-esc.txt"},
	"usage_limit_legacy":  {"56d-legacy-usage-limit-derived.txt", "56e-legacy-usage-limit-epoch-derived.txt"},
}

// matchedRows returns the rows of a fixture a pattern matches anywhere,
// ignoring regions.
func matchedRows(p *Pattern, s respawn.Screen) []string {
	var rows []string
	for _, row := range s.Lines {
		if p.Re.MatchString(strings.TrimRight(row, " \u00a0")) {
			rows = append(rows, row)
		}
	}
	return rows
}

func TestBuiltinScreenPatterns_MatchTheirFixtures(t *testing.T) {
	p := DefaultPatterns()
	for _, i := range p.screen {
		pat := p.list[i]
		files := screenPatternFixtures[pat.Name]
		if len(files) == 0 {
			t.Errorf("built-in pattern %s has no fixture", pat.Name)
		}
		for _, file := range files {
			f := p.Classify(screenFixture(t, file))
			if !slices.ContainsFunc(f.Evidence, func(e string) bool { return strings.HasPrefix(e, pat.Name+": ") }) {
				t.Errorf("%s: pattern %s is not in the evidence %q", file, pat.Name, f.Evidence)
			}
		}
	}
}

// TestBuiltinScreenPatterns_Traps checks rows of real screens that look
// like a pattern's but are not what it means.
func TestBuiltinScreenPatterns_Traps(t *testing.T) {
	traps := map[string][]string{
		"status_line": {
			"  Thinking… about the Running tests",    // prose, indented as assistant text
			"● Thinking… I will run the tests",       // assistant text
			"✻ Churned for 0s · done 6:47 PM",        // completion, no ellipsis
			"  ⎿  Tip: Use /theme to change… colour", // tip row
			"✻ thinking…",                            // not capitalised
		},
		"completion_line": {
			"  Thought for 3s",              // thinking summary (capture 44)
			"✻ Waiting for 5s before retry", // a gerund waits
			"✻ Waiting for 1 background agent to finish",
			"✶ Sublimating… (1m 10s)",
			"● I will run for 2m",
			"✻ Worked for a long time",
			"  ✻ Worked for 2m", // not at the row start
		},
		"busy_footer":        {"  ⏸ manual mode on · esc to interrupted"},
		"plan_accept_option": {" ❯ 1. Yes", "   2. Yes, manually approve edits", "❯ 1. Yes, and don't ask again"},
		"permission_proceed": {"   Claude has written up a plan and is ready to execute. Would you like to proceed?"},
		"question_header":    {"     ☐ Create hello.txt", "  ⎿  ☒ Run the tests"},                                                   // TodoWrite rows
		"dialog_footer":      {"    Continuing automatically at 10:06pm · Esc to cancel", "    Continuing shortly · Esc to cancel"}, // limit footers
		"api_error":          {"  The API Error: 500 came back", "● The command finished."},
		"usage_limit_hit":    {"● Automatic continue cancelled · /rate-limit-options to re-arm", "     /upgrade to increase your usage limit."},
		"usage_limit_reached": {"● Usage limit reset · Continuing automatically", "● Usage limit available again · continuing now",
			"  ⚠ Your usage limit has reset"},
		"auto_mode_check": {"● Auto mode can't check actions in this session. Its safety check runs on the server"},
	}
	p := DefaultPatterns()
	for name, rows := range traps {
		pat := patternNamed(t, p, name)
		for _, row := range rows {
			if pat.Re.MatchString(row) {
				t.Errorf("pattern %s matches trap row %q", name, row)
			}
		}
	}
}

func patternNamed(t testing.TB, p *Patterns, name string) *Pattern {
	t.Helper()
	for i := range p.list {
		if p.list[i].Name == name {
			return &p.list[i]
		}
	}
	t.Fatalf("no pattern %s", name)
	return nil
}

// TestClassify_Traps covers the screens where a naive reading goes wrong.
func TestClassify_Traps(t *testing.T) {
	p := DefaultPatterns()
	idle := screenFixture(t, "19-after-70s-reply.txt") // completion at row 35, box at 46-48
	boxless := withRows(idle, map[int]string{46: "", 47: "", 48: "", 49: ""})

	tests := []struct {
		name   string
		screen respawn.Screen
		want   string // describeFacts
	}{
		{"PromptWhileSpinnerRuns", screenFixture(t, "16-working-spinner-5s.txt"), "working prompt_box"},
		{"PromptWhileTimerRuns", screenFixture(t, "18-working-spinner-30s.txt"), "working prompt_box"},
		{"PromptWhileTextStreams", screenFixture(t, "36-streaming-text.txt"), "working prompt_box"},
		{"OldCompletionAboveNewPrompt", withRows(idle, map[int]string{37: "❯ next task please", 43: "✽ Pondering…"}), "working prompt_box"},
		{"OldCompletionAboveNewPromptFooterIdle", withRows(idle, map[int]string{37: "❯ next task please"}), "prompt_box"},
		{"NumberedListInTranscript", withRows(idle, map[int]string{37: "● Pick one:", 38: "  1. Yes", 39: "  2. No"}), "completion prompt_box"},
		{"NumberedListWithoutBox", withRows(boxless, map[int]string{37: "● Pick one:", 38: "  1. Yes", 39: "  2. No"}), "-"},
		{"SelectorListWithoutBox", withRows(boxless, map[int]string{38: "❯ 1. Yes", 39: "  2. No"}), "-"},
		{"ThinkingInProse", withRows(idle, map[int]string{37: "● Thinking about it, Running the tests is next.", 38: "  Thinking… Running…"}), "completion prompt_box"},
		{"BusyWordsInProse", withRows(idle, map[int]string{37: "● Press esc to interrupt me · esc to interrupt"}), "completion prompt_box"},
		{"DialogWordsInProse", withRows(idle, map[int]string{37: " Do you want to proceed?", 38: " Enter to confirm · Esc to cancel", 39: "Enter to select · ↑/↓ to navigate · Esc to cancel"}), "completion prompt_box"},
		{"PlanTitleWithoutAcceptOption", withRows(screenFixture(t, "32-plan-approval-prompt.txt"), map[int]string{44: "     1. Yes, and use auto mode", 46: "   ❯ 3. Tell Claude what to change"}), "dialog=plan_ready"},
		{"PlanOptionWithoutTitle", withRows(boxless, map[int]string{40: "   ❯ 1. Yes, and use auto mode"}), "dialog=plan_accept_option"},
		{"OldAPIErrorBeforeNewTurn", withRows(idle, map[int]string{27: "● API Error: 500 Internal server error (fake)."}), "completion prompt_box"},
		{"APIErrorInLatestTurn", withRows(idle, map[int]string{33: "● API Error: 500 Internal server error (fake).", 35: ""}), `prompt_box api_error="API Error: 500 Internal server error (fake)."`},
		{"OldUsageLimitBeforeNewTurn", screenFixture(t, "57-oauth-weekly-limit.txt"), `dialog=limit_menu usage_limit="You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := p.Classify(tt.screen)
			if got := describeFacts(f); got != tt.want {
				t.Errorf("facts = %s, want %s\nevidence %q", got, tt.want, f.Evidence)
			}
		})
	}
}

func TestScreenFacts_Blocker(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"21-askuserquestion.txt", "question"},
		{"26-askmulti-submit-tab.txt", "question"},
		{"14-bash-permission-prompt.txt", "permission prompt"},
		{"41-init-write-permission.txt", "permission prompt"},
		{"66b-auto-mode-no-classifier-dialog.txt", "permission prompt"},
		{"01-dialog-a.txt", "dialog (trust_dialog)"},
		{"02-after-trust.txt", "dialog (api_key_dialog)"},
		{"10-idle-manual-mode.txt", "dialog (auto_mode_nudge)"},
		{"57-oauth-weekly-limit.txt", "dialog (limit_menu)"},
		{"66-auto-mode-rmbash.txt", "dialog (auto_mode_check)"},
		{"32-plan-approval-prompt.txt", ""},
		{"30-exitplan-in-planmode.txt", ""},
		{"16-working-spinner-5s.txt", ""},
		{"19-after-70s-reply.txt", ""},
	}
	p := DefaultPatterns()
	for _, tt := range tests {
		if got := p.Classify(screenFixture(t, tt.file)).Blocker(); got != tt.want {
			t.Errorf("%s: Blocker() = %q, want %q", tt.file, got, tt.want)
		}
	}
}

func TestClassify_Input(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"04-typed-prompt.txt", "hello there"},
		{"35-err429-interrupted-by-esc.txt", "err429 please"},
		{"37-slash-typed-menu.txt", "/clear"},
		{"45-stream-error-event.txt", ""}, // placeholder
		{"62-queued-message-while-busy.txt", ""},
		{"16-working-spinner-5s.txt", ""},
	}
	p := DefaultPatterns()
	for _, tt := range tests {
		if got := p.Classify(screenFixture(t, tt.file)).Input; got != tt.want {
			t.Errorf("%s: Input = %q, want %q", tt.file, got, tt.want)
		}
	}
}

// spinnerFrame is one capture-pane sample of reference spinner-frames.
type spinnerFrame struct {
	T      float64  `json:"t"`
	Above  []string `json:"above"`
	Footer []string `json:"footer"`
}

// TestClassify_SpinnerFrames classifies every frame sampled while Claude
// worked: working until the footer turns idle, then a completion.
func TestClassify_SpinnerFrames(t *testing.T) {
	p := DefaultPatterns()
	paths, _ := filepath.Glob(filepath.Join(screenDir, "spinner-frames", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no spinner frames")
	}
	rule := strings.Repeat("─", 200)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var frames []spinnerFrame
		if err := json.Unmarshal(data, &frames); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, fr := range frames {
			lines := append(slices.Clone(fr.Above), rule, "❯\u00a0", rule)
			f := p.Classify(respawn.Screen{Lines: append(lines, fr.Footer...)})
			busy := strings.Contains(strings.Join(fr.Footer, "\n"), "esc to interrupt")
			if f.Working != busy {
				t.Errorf("%s t=%.2f: Working = %v, footer %q", filepath.Base(path), fr.T, f.Working, fr.Footer)
			}
			done := !busy && strings.HasPrefix(fr.Above[len(fr.Above)-1], "✻ ") && strings.Contains(fr.Above[len(fr.Above)-1], " for ")
			if f.Completion != done {
				t.Errorf("%s t=%.2f: Completion = %v, rows %q", filepath.Base(path), fr.T, f.Completion, fr.Above)
			}
		}
	}
}

func TestClassify_UserPatterns(t *testing.T) {
	p, err := CompilePatterns([]respawn.PatternSpec{
		{Name: "color_picker", Kind: "dialog", Regexp: `^\s*Pick a colou?r:$`, Line: 3},
		{Name: "gardening", Kind: "working", Regexp: `^🌱 Gardening`, Line: 8},
		{Name: "wave", Kind: "background_wait", Regexp: `^~ waiting on (\d+) helpers$`, Line: 12},
	})
	if err != nil {
		t.Fatal(err)
	}
	idle := screenFixture(t, "19-after-70s-reply.txt")
	boxless := withRows(idle, map[int]string{46: "", 47: "", 48: "", 49: ""})
	tests := []struct {
		name   string
		screen respawn.Screen
		want   string
	}{
		{"DialogWithoutBox", withRows(boxless, map[int]string{40: "  Pick a color:"}), "dialog=color_picker"},
		{"DialogIgnoredWithBox", withRows(idle, map[int]string{40: "  Pick a color:"}), "completion prompt_box"},
		{"Working", withRows(idle, map[int]string{43: "🌱 Gardening (3s)"}), "working prompt_box"},
		{"BackgroundWait", withRows(idle, map[int]string{37: "~ waiting on 3 helpers"}), "background_wait=3 prompt_box"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeFacts(p.Classify(tt.screen)); got != tt.want {
				t.Errorf("facts = %s, want %s", got, tt.want)
			}
		})
	}
}
