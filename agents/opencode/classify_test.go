package opencode_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/opencode"
	"github.com/codeman-dev/codeman/respawn"
)

const version = "1.18.33"

// screen reads a recorded screen of the real CLI (testdata/screens).
func screen(t *testing.T, name string) respawn.Screen {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "screens", "v"+version+"-"+name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	return respawn.Screen{Lines: lines, Width: 200, Height: len(lines)}
}

// want is what a screen must read as; the zero value is an empty
// composer, nothing working and no turn over.
type want struct {
	noBox, working, completion, permission, question bool
	input                                            string
	apiError, usageLimit                             string // substrings
	blocker                                          string // BlockerText
}

// Every recorded screen, classified: each fact is compared, so a screen
// that gains one it should not have fails too.
func TestClassify_RecordedScreens(t *testing.T) {
	for name, w := range map[string]want{
		"after-new":                   {},
		"typed":                       {input: "say hello"},
		"clear-typed":                 {input: "/clear"},
		"new-typed":                   {input: "/new"},
		"init-typed":                  {input: "/init"},
		"working":                     {working: true},
		"streaming":                   {working: true},
		"esc-once-working":            {working: true},
		"tool-running":                {working: true},
		"tool-running-after-approval": {working: true},
		"api-error-500-retrying":      {working: true},
		"api-error-429-retrying":      {working: true},
		"done":                        {completion: true},
		"enter-in-one-write":          {completion: true},
		"tool-done":                   {completion: true},
		"init-working":                {completion: true},
		"init-done":                   {completion: true},
		"plan-agent":                  {completion: true},
		"plan-done":                   {completion: true},
		"interrupted":                 {},
		"permission-esc":              {},
		"api-error-500":               {apiError: "Internal server error (fake)"},
		"api-error-429":               {apiError: "per-minute rate limit (fake)"},
		"api-error-401":               {apiError: "invalid x-api-key (fake)"},
		"ctrl-c-with-text":            {apiError: "invalid x-api-key (fake)"},
		"permission-bash":             {noBox: true, permission: true, blocker: "$ sleep 6; echo slow done"},
		"permission-edit":             {noBox: true, permission: true, blocker: "→ Edit notes.txt"},
		"init-permission":             {noBox: true, permission: true, blocker: "→ Edit AGENTS.md"},
		"ctrl-c-twice":                {noBox: true},
		"question":                    {noBox: true, question: true, blocker: "Which colour should the button be?"},
	} {
		t.Run(name, func(t *testing.T) {
			f := opencode.New().Classify(screen(t, name))
			check := func(what string, got, want any) {
				t.Helper()
				if got != want {
					t.Errorf("%s = %v, want %v\nevidence: %q", what, got, want, f.Evidence)
				}
			}
			check("PromptBox", f.PromptBox, !w.noBox)
			check("Input", f.Input, w.input)
			check("Working", f.Working, w.working)
			check("Completion", f.Completion, w.completion)
			check("Permission", f.Permission, w.permission)
			check("Question", f.Question, w.question)
			check("Blocker", f.Blocker() != "", w.permission || w.question)
			if w.blocker != "" {
				check("BlockerText", f.BlockerText, w.blocker)
			}
			if w.apiError == "" || !strings.Contains(f.APIError, w.apiError) {
				check("APIError", f.APIError, w.apiError)
			}
			check("UsageLimit", f.UsageLimit != "", w.usageLimit != "")
			if f.Content == 0 && !w.noBox {
				t.Error("Content is 0")
			}
			if f.Ask.Open() {
				t.Errorf("Ask %+v: the highlighted choice shows only in colour, so no answer from afar", f.Ask)
			}
		})
	}
}

// A failed turn whose error names a usage limit, not the request rate,
// is a usage limit; the screen gives no reset time.
func TestClassify_UsageLimit(t *testing.T) {
	s := screen(t, "api-error-401")
	for i, row := range s.Lines {
		s.Lines[i] = strings.Replace(row, "invalid x-api-key (fake)", "You have reached your usage limit (fake)", 1)
	}
	f := opencode.New().Classify(s)
	if f.UsageLimit == "" || f.APIError != "" {
		t.Fatalf("UsageLimit %q, APIError %q; want the limit", f.UsageLimit, f.APIError)
	}
	ul, ok := opencode.New().FindUsageLimit(strings.Join(s.Lines, "\n"), s.At)
	if !ok || !ul.ResetAt.IsZero() || !strings.Contains(ul.Line, "usage limit") {
		t.Errorf("FindUsageLimit = %+v, %v", ul, ok)
	}
}

// The working bar is read from the stream across chunks, a rune split
// between two included; other output is only visible text.
func TestStream(t *testing.T) {
	s := opencode.New().NewStream()
	bar := []byte("\x1b[49;4H\x1b[38;2;250;178;131m■■\x1b[38;2;100;100;100m⬝⬝")
	if f := s.Feed(bar[:len(bar)-2]); !f.Working {
		t.Errorf("bar chunk: %+v, want working", f)
	}
	if f := s.Feed(bar[len(bar)-2:]); !f.Working {
		t.Errorf("bar's split rune: %+v, want working", f)
	}
	if f := s.Feed([]byte("\x1b[5;5HHello from the fake")); f.Working || f.Visible != 16 {
		t.Errorf("reply text: %+v, want 16 visible runes and no work", f)
	}
}

// A session's first turn that failed has the sidebar's rows beside its
// footer ("LSP" on the row above it): they are no part of the turn.
func TestClassify_FailedFirstTurnBesideTheSidebar(t *testing.T) {
	lines := []string{
		"  ┃                                                                                          Fake title",
		"  ┃  server error test",
		"  ┃                                                                                          Context",
		"                                                                                             8,010 tokens",
		"  ┃                                                                                          1% used",
		"  ┃  Internal server error (fake)",
		"  ┃",
		"                                                                                             LSP",
		"     ▣  Build · Claude Sonnet 4.5 (latest)",
		"",
		"  ┃",
		"  ┃",
		"  ┃",
		"  ┃  Build · Claude Sonnet 4.5 (latest) Anthropic                                   /tmp/proj",
		"  ╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
		"   /tmp/proj                              8.0K (1%) · $0.02  ctrl+p commands    • OpenCode 1.18.33",
	}
	f := opencode.New().Classify(respawn.Screen{Lines: lines, Width: 120, Height: len(lines)})
	if f.APIError != "Internal server error (fake)" {
		t.Errorf("APIError = %q, want the error block's text (evidence %q)", f.APIError, f.Evidence)
	}
}
