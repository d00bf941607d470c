package copilottest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/copilottest"
)

// screenDir holds the recorded screens of the pinned CLI.
var screenDir = filepath.Join("..", "..", "..", "agents", "copilot", "testdata", "screens")

func readScreen(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(screenDir, "v"+copilottest.Version+"-"+name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The screen predicates against the recorded screens of the pinned CLI.
func TestScreenPredicates(t *testing.T) {
	type want struct{ ready, working, dialog, typed, trust, permission, shell, question bool }
	for screen, w := range map[string]want{
		"idle":                      {ready: true},
		"done":                      {ready: true},
		"after-clear":               {ready: true},
		"autopilot-mode":            {ready: true},
		"plan-mode":                 {ready: true},
		"resumed":                   {ready: true},
		"api-error-500":             {ready: true},
		"working":                   {working: true},
		"streaming":                 {working: true},
		"tool-running":              {working: true},
		"esc-once-working":          {working: true},
		"queued":                    {working: true},
		"typed-while-working":       {working: true},
		"api-error-500-retrying":    {working: true},
		"typed":                     {typed: true},
		"paste-multiline":           {typed: true},
		"folder-trust":              {dialog: true, trust: true},
		"permission-shell":          {dialog: true, permission: true, shell: true},
		"permission-shell-remember": {dialog: true, permission: true, shell: true},
		"permission-write":          {dialog: true, permission: true},
		"plan-approval":             {dialog: true},
		"question":                  {dialog: true, question: true},
		"rewind-dialog":             {dialog: true},
		"sessions-tab":              {dialog: true},
		// Not ready for a prompt: the footer arms a second key.
		"esc-idle":    {},
		"ctrl-c-once": {},
	} {
		s := readScreen(t, screen)
		for _, p := range []struct {
			name string
			f    func(string) bool
			want bool
		}{
			{"PromptReady", copilottest.PromptReady, w.ready},
			{"Working", copilottest.Working, w.working},
			{"DialogOpen", copilottest.DialogOpen, w.dialog},
			{"Typed", copilottest.Typed, w.typed},
			{"TrustOpen", copilottest.TrustOpen, w.trust},
			{"PermissionOpen", copilottest.PermissionOpen, w.permission},
			{"ShellPermissionOpen", copilottest.ShellPermissionOpen, w.shell},
			{"QuestionOpen", copilottest.QuestionOpen, w.question},
		} {
			if got := p.f(s); got != p.want {
				t.Errorf("%s: %s = %t, want %t", screen, p.name, got, p.want)
			}
		}
	}
}

func TestAPIErrorLine(t *testing.T) {
	for name, want := range map[string]string{
		"api-error-500": " ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 16.10 seconds) Last error: 500 The server had an error while processing your request (fake)",
		"api-error-401": " ✗ Authentication failed with provider at http://127.0.0.1:18431/v1 (HTTP 401).",
		"tool-failed":   "",
	} {
		if got := copilottest.APIErrorLine.FindString(readScreen(t, name)); got != want {
			t.Errorf("%s: APIErrorLine found %q, want %q", name, got, want)
		}
	}
}

func TestReplied(t *testing.T) {
	reply := copilottest.Replied("First piece of a slow answer. Second piece.")
	if !reply(readScreen(t, "done")) {
		t.Error("Replied does not hold on the finished turn")
	}
	// The same reply while the turn still streams.
	if reply(readScreen(t, "streaming")) {
		t.Error("Replied holds while the turn works")
	}
}
