package opencodetest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/opencodetest"
)

// screenDir holds the recorded screens of the pinned CLI.
var screenDir = filepath.Join("..", "..", "..", "agents", "opencode", "testdata", "screens")

func readScreen(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(screenDir, "v"+opencodetest.Version+"-"+name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The screen predicates against the recorded screens of the pinned CLI.
func TestScreenPredicates(t *testing.T) {
	type want struct{ ready, working, retrying, typed, permission, shell, question bool }
	for screen, w := range map[string]want{
		"done":                        {ready: true},
		"enter-in-one-write":          {ready: true},
		"tool-done":                   {ready: true},
		"interrupted":                 {ready: true},
		"after-new":                   {ready: true},
		"init-working":                {ready: true},
		"init-done":                   {ready: true},
		"plan-agent":                  {ready: true},
		"plan-done":                   {ready: true},
		"permission-esc":              {ready: true},
		"api-error-500":               {ready: true},
		"api-error-429":               {ready: true},
		"api-error-401":               {ready: true},
		"ctrl-c-with-text":            {ready: true},
		"working":                     {working: true},
		"streaming":                   {working: true},
		"tool-running":                {working: true},
		"tool-running-after-approval": {working: true},
		"esc-once-working":            {working: true},
		"api-error-500-retrying":      {working: true, retrying: true},
		"api-error-429-retrying":      {working: true, retrying: true},
		"typed":                       {typed: true},
		"new-typed":                   {typed: true},
		"clear-typed":                 {typed: true},
		"init-typed":                  {typed: true},
		"permission-bash":             {permission: true, shell: true},
		"permission-edit":             {permission: true},
		"init-permission":             {permission: true},
		"question":                    {question: true},
		// The shell's row after OpenCode exited.
		"ctrl-c-twice": {},
	} {
		s := readScreen(t, screen)
		for _, p := range []struct {
			name string
			f    func(string) bool
			want bool
		}{
			{"PromptReady", opencodetest.PromptReady, w.ready},
			{"Working", opencodetest.Working, w.working},
			{"Retrying", opencodetest.Retrying, w.retrying},
			{"Typed", opencodetest.Typed, w.typed},
			{"PermissionOpen", opencodetest.PermissionOpen, w.permission},
			{"ShellPermissionOpen", opencodetest.ShellPermissionOpen, w.shell},
			{"QuestionOpen", opencodetest.QuestionOpen, w.question},
		} {
			if got := p.f(s); got != p.want {
				t.Errorf("%s: %s = %t, want %t", screen, p.name, got, p.want)
			}
		}
	}
}

func TestErrorLine(t *testing.T) {
	for name, want := range map[string]string{
		"api-error-500":          "Internal server error (fake)",
		"api-error-429":          "Number of request tokens has exceeded your per-minute rate limit (fake)",
		"api-error-401":          "invalid x-api-key (fake)",
		"api-error-500-retrying": "",
		"done":                   "",
		"interrupted":            "",
		"permission-esc":         "",
		"tool-done":              "",
		"permission-bash":        "",
	} {
		if got := opencodetest.ErrorLine(readScreen(t, name)); got != want {
			t.Errorf("%s: ErrorLine = %q, want %q", name, got, want)
		}
	}
}

func TestReplied(t *testing.T) {
	reply := opencodetest.Replied("First piece of a slow answer. Second piece. Third and last piece.")
	if !reply(readScreen(t, "done")) {
		t.Error("Replied does not hold on the finished turn")
	}
	if reply(readScreen(t, "streaming")) {
		t.Error("Replied holds while the turn works")
	}
}

// The sidebar of a session's first turn shares the error block's rows and
// has rows of its own between it and the turn footer.
func TestErrorLine_Sidebar(t *testing.T) {
	pad := strings.Repeat(" ", 150)
	screen := strings.Join([]string{
		"  ┃" + pad + "Fake title",
		"  ┃  server error test" + pad + "Context",
		"  ┃" + pad + "0% used",
		"  ┃  Internal server error (fake)" + pad + "$0.00 spent",
		"  ┃",
		pad + "LSP",
		"     ▣  Build · Claude Sonnet 4.5 (latest)" + pad + "LSPs are disabled",
		"  ┃", "  ┃", "  ┃",
		"  ┃  Build · Claude Sonnet 4.5 (latest) Anthropic" + pad + "~/proj",
		"  ╹▀▀▀▀▀▀▀▀▀▀▀▀",
		"   ~/proj" + pad + "tab agents  ctrl+p commands    • OpenCode 1.18.33",
	}, "\n")
	if got := opencodetest.ErrorLine(screen); got != "Internal server error (fake)" {
		t.Errorf("ErrorLine = %q, want the error", got)
	}
	if !opencodetest.PromptReady(screen) {
		t.Error("PromptReady does not hold")
	}
}
