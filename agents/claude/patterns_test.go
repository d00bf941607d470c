package claude

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
)

func TestPatternKind_String(t *testing.T) {
	want := map[PatternKind]string{
		PatternWorking:        "working",
		PatternCompletion:     "completion",
		PatternBackgroundWait: "background_wait",
		PatternPlanMenu:       "plan_menu",
		PatternQuestion:       "question",
		PatternPermission:     "permission",
		PatternDialog:         "dialog",
		PatternAPIError:       "api_error",
		PatternUsageLimit:     "usage_limit",
		0:                     "unknown",
		99:                    "unknown",
	}
	for k, name := range want {
		if got := k.String(); got != name {
			t.Errorf("PatternKind(%d).String() = %q, want %q", int(k), got, name)
		}
		if name == "unknown" {
			continue
		}
		if back, err := ParsePatternKind(name); err != nil || back != k {
			t.Errorf("ParsePatternKind(%q) = %v, %v; want %v", name, back, err, k)
		}
	}
	if _, err := ParsePatternKind("spinner"); err == nil {
		t.Error("ParsePatternKind(spinner) gave no error")
	}
}

func TestDefaultPatterns_Table(t *testing.T) {
	p := DefaultPatterns()
	if DefaultPatterns() != p {
		t.Error("DefaultPatterns compiles the table more than once")
	}
	seen := map[string]bool{}
	for _, pat := range p.List() {
		if seen[pat.Name] {
			t.Errorf("pattern name %s used twice", pat.Name)
		}
		seen[pat.Name] = true
		if pat.Re == nil || pat.Doc == "" || pat.Kind.String() == "unknown" {
			t.Errorf("pattern %s lacks a regexp, a doc or a kind", pat.Name)
		}
		if pat.Stream != (pat.find != nil) {
			t.Errorf("pattern %s: a built-in stream pattern needs a hand matcher, a screen pattern none", pat.Name)
		}
		if pat.Re.MatchString("") {
			t.Errorf("pattern %s matches an empty row", pat.Name)
		}
	}
}

// TestScreenPatterns_LiteralPrefilter checks that every row a screen
// pattern matches holds its prefilter literal, over every fixture row.
func TestScreenPatterns_LiteralPrefilter(t *testing.T) {
	p := DefaultPatterns()
	for _, name := range screenFixtureNames(t, ".txt") {
		s := screenFixture(t, name)
		for _, i := range p.screen {
			pat := &p.list[i]
			for _, row := range matchedRows(pat, s) {
				if !strings.Contains(row, pat.lit) {
					t.Errorf("%s: pattern %s matches %q, which lacks its literal %q", name, pat.Name, row, pat.lit)
				}
			}
		}
	}
}

func TestCompilePatterns(t *testing.T) {
	p, err := CompilePatterns([]respawn.PatternSpec{
		{Name: "frobnicating", Kind: "working", Scope: "stream", Regexp: `Frobnicating`, Line: 4},
		{Name: "pick", Kind: "question", Regexp: `^Pick one:$`, Line: 9},
	})
	if err != nil {
		t.Fatal(err)
	}
	list := p.List()
	if n := len(DefaultPatterns().List()); len(list) != n+2 || list[n].Name != "frobnicating" || !list[n].Stream || list[n+1].Stream {
		t.Errorf("user patterns not appended in order: %d patterns, last %+v", len(list), list[len(list)-1])
	}
	if p, err := CompilePatterns(nil); err != nil || p != DefaultPatterns() {
		t.Errorf("CompilePatterns(nil) = %p, %v; want the default table", p, err)
	}
}

func TestCompilePatterns_Errors(t *testing.T) {
	ok := respawn.PatternSpec{Name: "mine", Kind: "dialog", Regexp: `^Mine\?$`, Line: 7}
	tests := []struct {
		name  string
		specs []respawn.PatternSpec
		want  string
	}{
		{"UnknownKind", []respawn.PatternSpec{{Name: "foo", Kind: "spinner", Regexp: "x", Line: 12}},
			`pattern "foo" (line 12): unknown kind "spinner" (want one of working, completion, background_wait, plan_menu, question, permission, dialog, api_error, usage_limit)`},
		{"BadRegexp", []respawn.PatternSpec{{Name: "foo", Kind: "working", Regexp: "(", Line: 12}},
			`pattern "foo" (line 12): compile regexp: error parsing regexp: missing closing ): ` + "`(`"},
		{"EmptyRegexp", []respawn.PatternSpec{{Name: "foo", Kind: "working", Line: 12}},
			`pattern "foo" (line 12): regexp is empty`},
		{"MatchesEverything", []respawn.PatternSpec{{Name: "foo", Kind: "working", Regexp: "x*", Line: 12}},
			`pattern "foo" (line 12): regexp "x*" matches an empty row`},
		{"DuplicateUserName", []respawn.PatternSpec{ok, {Name: "mine", Kind: "working", Regexp: "y", Line: 15}},
			`pattern "mine" (line 15): name already used`},
		{"BuiltinName", []respawn.PatternSpec{{Name: "busy_footer", Kind: "working", Regexp: "y", Line: 2}},
			`pattern "busy_footer" (line 2): name already used`},
		{"EmptyName", []respawn.PatternSpec{{Kind: "working", Regexp: "y", Line: 3}},
			`pattern "" (line 3): name is empty`},
		{"UnknownScope", []respawn.PatternSpec{{Name: "foo", Kind: "working", Scope: "pane", Regexp: "y"}},
			`pattern "foo": unknown scope "pane" (want screen or stream)`},
		{"StreamDialog", []respawn.PatternSpec{{Name: "foo", Kind: "dialog", Scope: "stream", Regexp: "y", Line: 5}},
			`pattern "foo" (line 5): scope stream is only for working and completion patterns`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompilePatterns(tt.specs)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error = %v\nwant %s", err, tt.want)
			}
			var pe *PatternError
			if !errors.As(err, &pe) || pe.Name != tt.specs[len(tt.specs)-1].Name {
				t.Errorf("error %v is no *PatternError for the bad pattern", err)
			}
		})
	}
}

// TestBuiltinStreamPatterns_MatchTheirFixtures feeds real output to the
// hand matcher of every built-in stream pattern.
func TestBuiltinStreamPatterns_MatchTheirFixtures(t *testing.T) {
	fixtures := map[string][]string{
		"status_line_stream":     {"05-just-submitted.ansi", "16-working-spinner-5s.ansi", "18-working-spinner-30s.ansi", "60-bash-running.ansi", "67-custom-spinner-verb.ansi"},
		"busy_footer_stream":     {"16-working-spinner-5s.ansi", "36-streaming-text.ansi", "52-noaltscreen-streaming.ansi"},
		"api_retry_stream":       {"34-err429-retrying.ansi"},
		"braille_spinner_stream": {"16d-legacy-braille-spinner-derived.ansi"},
		"circle_spinner_stream":  {"16e-legacy-circle-spinner-derived.ansi"},
		"completion_stream":      {"06-reply-done.ansi", "19-after-70s-reply.ansi", "22-askq-after-2.ansi", "42-init-done.ansi", "61-bash-finished.ansi"},
	}
	traps := map[string][]string{
		// The idle effort indicator "◐ medium · /effort" is no spinner.
		"circle_spinner_stream": {"46-fresh-home-minimal-seed-idle.ansi", "54-oauth-startup.ansi"},
		"status_line_stream":    {"06-reply-done.ansi", "19-after-70s-reply.ansi"},
		"busy_footer_stream":    {"06-reply-done.ansi", "55-oauth-usage-limit.ansi"},
		"completion_stream":     {"00-first-launch-raw.ansi", "01-dialog-a.ansi"},
	}
	p := DefaultPatterns()
	for _, i := range append(p.streamWork, p.streamDone...) {
		pat := &p.list[i]
		if len(fixtures[pat.Name]) == 0 {
			t.Errorf("built-in pattern %s has no fixture", pat.Name)
		}
		for _, file := range fixtures[pat.Name] {
			if s, _ := pat.find(strippedFixture(t, file), 0); s < 0 {
				t.Errorf("%s: pattern %s does not match", file, pat.Name)
			}
		}
		for _, file := range traps[pat.Name] {
			if s, e := pat.find(strippedFixture(t, file), 0); s >= 0 {
				t.Errorf("%s: pattern %s matches %q", file, pat.Name, strippedFixture(t, file)[s:e])
			}
		}
	}
}

// strippedFixture returns an .ansi fixture as the stream detector sees it.
func strippedFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(screenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(StripANSI(string(data)))
}
