package tmux

import (
	"context"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// trickyWords are inputs that break naive tmux quoting.
var trickyWords = []struct {
	name, in string
	argv     string // argvWord(in)
	control  string // controlWord(in)
}{
	{"Plain", "hello", "hello", "hello"},
	{"Empty", "", "", `""`},
	{"LeadingDash", "-x flag", "-x flag", `"-x flag"`},
	{"TrailingSemicolon", "ends;", `ends\;`, `"ends;"`},
	{"OnlySemicolon", ";", `\;`, `";"`},
	{"EscapedSemicolon", `a\;`, `a\\;`, `"a\\;"`},
	{"InnerSemicolon", "a;b", "a;b", `"a;b"`},
	{"Backslash", `back\slash\`, `back\slash\`, `"back\\slash\\"`},
	{"Quotes", `"double" 'single'`, `"double" 'single'`, `"\"double\" 'single'"`},
	{"Dollar", "$HOME ${HOME}", "$HOME ${HOME}", `"\$HOME \${HOME}"`},
	{"Tilde", "~/x ~", "~/x ~", `"\~/x \~"`},
	{"Format", "#{pane_id} #[fg=red]", "#{pane_id} #[fg=red]", `"#{pane_id} #[fg=red]"`},
	{"Comment", "# not a comment", "# not a comment", `"# not a comment"`},
	{"Braces", "{ x }", "{ x }", `"{ x }"`},
	{"Unicode", "café ✻ ❯\u00a0x", "café ✻ ❯\u00a0x", "\"café ✻ ❯\u00a0x\""},
	{"Tab", "a\tb", "a\tb", `"a\tb"`},
	{"Newline", "one\ntwo", "one\ntwo", `"one\ntwo"`},
	{"ControlBytes", "\x01\x1b[1m\x7f", "\x01\x1b[1m\x7f", `"\001\033[1m\177"`},
	{"PaneID", "%3", "%3", "%3"},
	{"PaneCondition", "%3:continue", "%3:continue", `"%3:continue"`},
	{"IfDirective", "%if", "%if", `"%if"`},
	{"ExactSession", "=work", "=work", "=work"},
}

func TestArgvWord(t *testing.T) {
	for _, tt := range trickyWords {
		t.Run(tt.name, func(t *testing.T) {
			if got := argvWord(tt.in); got != tt.argv {
				t.Errorf("argvWord(%q) = %q, want %q", tt.in, got, tt.argv)
			}
		})
	}
}

func TestControlWord(t *testing.T) {
	for _, tt := range trickyWords {
		t.Run(tt.name, func(t *testing.T) {
			got := controlWord(tt.in)
			if got != tt.control {
				t.Errorf("controlWord(%q) = %q, want %q", tt.in, got, tt.control)
			}
			if strings.ContainsAny(got, "\r\n") {
				t.Errorf("controlWord(%q) = %q contains a line break", tt.in, got)
			}
		})
	}
}

func TestControlLine_RejectsEmpty(t *testing.T) {
	for _, args := range [][]string{nil, {""}} {
		if line, err := controlLine(args); err == nil {
			t.Errorf("controlLine(%q) = %q, want an error", args, line)
		}
	}
}

// TestQuoting_RealServer stores every tricky word in a pane option, once
// through a tmux process (argv rule) and once over a control connection
// (control-line rule), and reads it back unchanged.
func TestQuoting_RealServer(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("quote", "cat")
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	client := startClient(t, srv, "quote", ClientOptions{})
	runners := map[string]Runner{"Argv": srv, "Control": client}
	for rname, runner := range runners {
		for _, tt := range trickyWords {
			t.Run(rname+"/"+tt.name, func(t *testing.T) {
				if _, err := runner.Run(ctx, "set-option", "-p", "-t", pane, "@word", tt.in); err != nil {
					t.Fatalf("set: %v", err)
				}
				got, ok, err := srv.PaneOption(ctx, pane, "@word")
				if err != nil || !ok || got != tt.in {
					t.Errorf("read back %q, %v, %v; want %q", got, ok, err, tt.in)
				}
			})
		}
	}
}
