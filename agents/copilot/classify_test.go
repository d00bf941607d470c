package copilot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot"
	"github.com/codeman-dev/codeman/respawn"
)

const version = "1.0.102"

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

// want is what a screen must read as; the zero value is an idle box with
// nothing in it and no turn over.
type want struct {
	working, completion, noBox bool
	input                      string
	question, permission, plan bool
	dialog                     string // DialogName
	apiError, usageLimit       string // substrings
}

// Every recorded screen, classified: each fact is compared, so a screen
// that gains one it should not have fails too.
func TestClassify_RecordedScreens(t *testing.T) {
	for name, w := range map[string]want{
		"idle":                      {},
		"resumed":                   {},
		"not-signed-in":             {apiError: "You must be logged in"},
		"typed":                     {input: "say hello"},
		"paste-multiline":           {input: "pasted line one pasted line two", completion: true},
		"paste-cr-not-submitted":    {input: "one write long text, well over thirty-two characters", completion: true},
		"typed-while-working":       {working: true, input: "second typed while working"},
		"queued":                    {working: true},
		"working":                   {working: true},
		"streaming":                 {working: true},
		"esc-once-working":          {working: true},
		"tool-running":              {working: true},
		"done":                      {completion: true},
		"tool-done":                 {completion: true},
		"question-answered":         {completion: true},
		"subagent":                  {completion: true},
		"interrupted":               {},
		"withdrawn":                 {input: "delayed reply please"},
		"permission-shell":          {noBox: true, permission: true},
		"permission-shell-remember": {noBox: true, permission: true},
		"permission-write":          {noBox: true, permission: true},
		"permission-feedback":       {noBox: true, permission: true},
		"permission-esc":            {},
		"permission-rejected":       {completion: true},
		"question":                  {noBox: true, question: true},
		"plan-approval":             {noBox: true, plan: true},
		"plan-mode":                 {},
		"plan-accepted":             {completion: true},
		"autopilot-mode":            {},
		"folder-trust":              {noBox: true, dialog: "folder_trust"},
		"rewind-dialog":             {noBox: true, dialog: "rewind"},
		"sessions-tab":              {noBox: true, dialog: "view"},
		"esc-idle":                  {completion: true},
		"ctrl-c-once":               {},
		"ctrl-c-with-text":          {completion: true},
		"clear-typed":               {input: "/clear", completion: true},
		"new-typed":                 {input: "/new", completion: true},
		"reset-typed":               {input: "/reset"},
		"init-typed":                {input: "/init"},
		"exit-typed":                {input: "/exit", completion: true},
		"after-clear":               {},
		"after-new":                 {},
		"after-reset":               {},
		"init-done":                 {completion: true},
		"compact":                   {completion: true},
		"tool-failed":               {completion: true},
		"api-error-500-retrying":    {working: true},
		"api-error-429-retrying":    {working: true},
		"api-error-500":             {apiError: "Last error: 500 The server had an error"},
		"api-error-429":             {apiError: "Last error: 429 Rate limit reached"},
		"api-error-401":             {apiError: "Authentication failed with provider"},
		"api-error-stream-failed":   {apiError: "Last error: The stream broke"},
		"api-error-429-usage-limit": {usageLimit: "429 The usage limit has been reached"},
		"exit":                      {noBox: true},
		"exit-ctrl-c":               {noBox: true},
	} {
		t.Run(name, func(t *testing.T) {
			f := copilot.New().Classify(screen(t, name))
			check := func(what string, got, want any) {
				t.Helper()
				if got != want {
					t.Errorf("%s = %v, want %v\nevidence: %q", what, got, want, f.Evidence)
				}
			}
			check("Working", f.Working, w.working)
			check("PromptBox", f.PromptBox, !w.noBox)
			check("Input", f.Input, w.input)
			check("Completion", f.Completion, w.completion)
			check("Question", f.Question, w.question)
			check("Permission", f.Permission, w.permission)
			check("PlanMenu", f.PlanMenu, w.plan)
			check("DialogName", f.DialogName, w.dialog)
			check("Dialog", f.Dialog, w.dialog != "")
			if w.apiError == "" || !strings.Contains(f.APIError, w.apiError) {
				check("APIError", f.APIError != "", w.apiError != "")
			}
			if w.usageLimit == "" || !strings.Contains(f.UsageLimit, w.usageLimit) {
				check("UsageLimit", f.UsageLimit != "", w.usageLimit != "")
			}
			if f.Content == 0 {
				t.Error("Content is 0")
			}
		})
	}
}

// Autopilot mode, where Copilot answers its own questions and permission
// prompts, is said among the evidence; the other modes are not.
func TestClassify_AutopilotSaid(t *testing.T) {
	for name, want := range map[string]bool{"autopilot-mode": true, "plan-mode": false, "idle": false} {
		f := copilot.New().Classify(screen(t, name))
		said := false
		for _, e := range f.Evidence {
			said = said || strings.HasPrefix(e, "autopilot: ")
		}
		if said != want {
			t.Errorf("%s: autopilot said %v, want %v (evidence %q)", name, said, want, f.Evidence)
		}
	}
}
