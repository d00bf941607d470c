package tmux

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// What tmux 3.4 and 3.5 print for a value, and the value.
var escapedOutputs = []struct{ name, printed, want string }{
	{"Plain", "watching: idle in 3s", "watching: idle in 3s"},
	{"Dollar", `\$HOME \${HOME} \$_x`, "$HOME ${HOME} $_x"},
	{"DollarNotEscaped", `$5 $ $-`, "$5 $ $-"},
	{"CStyle", `a\rb\bc\ad\ve\ff`, "a\rb\bc\ad\ve\ff"},
	{"Octal", `\001\033[1m\177`, "\x01\x1b[1m\x7f"},
	{"BrokenUTF8", `\377x`, "\xffx"},
	{"NUL", `a\0b \000123`, "a\x00b \x00123"},
	{"LiteralBackslash", `C:\path\ \q`, `C:\path\ \q`},
	{"TrailingBackslash", `end\`, `end\`},
	{"KeptAsIs", "tab\there ❯ café", "tab\there ❯ café"},
	{"JSONList", `["a\u0024b","\u005c","x\"y"]`, `["a\u0024b","\u005c","x\"y"]`},
}

func TestUnescapeOutput(t *testing.T) {
	for _, tt := range escapedOutputs {
		t.Run(tt.name, func(t *testing.T) {
			if got := unescapeOutput(tt.printed); got != tt.want {
				t.Errorf("unescapeOutput(%q) = %q, want %q", tt.printed, got, tt.want)
			}
		})
	}
}

func TestSplitFields(t *testing.T) {
	tests := []struct {
		name, line string
		n          int
		want       []string
	}{
		{"Raw", "%1\x1f$HOME\x1f\x1b", 3, []string{"%1", "$HOME", "\x1b"}},
		{"RawKeepsBackslashes", `%1` + "\x1f" + `\$HOME\037`, 2, []string{"%1", `\$HOME\037`}},
		{"Escaped", `%1\037\$HOME\037\033`, 3, []string{"%1", "$HOME", "\x1b"}},
		{"StraySeparator", "%1\x1fa\x1fb", 2, nil},
		{"StrayEscapedSeparator", `%1\037a\037b`, 2, nil},
		{"NoSeparator", "%1", 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := splitFields(tt.line, tt.n)
			if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
				t.Errorf("splitFields(%q, %d) = %q, %v; want %q", tt.line, tt.n, got, ok, tt.want)
			}
		})
	}
}

// A ListValue is JSON, and holds no byte that tmux 3.4 escapes and no
// backslash but those of \" and \u.
func TestListValue(t *testing.T) {
	values := []string{"prompt=line one\nline two", `path=C:\new\x`, "$HOME ${x} $_", "\x1b[1m\x7f\r\x00", "quote=\"q\"", "emoji=✻ 🚀", ""}
	v := ListValue(values)
	var back []string
	if err := json.Unmarshal([]byte(v), &back); err != nil || !slices.Equal(back, values) {
		t.Fatalf("ListValue(%q) = %s, reads back %q, %v", values, v, back, err)
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 || c >= 0x7f || c == '$' {
			t.Fatalf("ListValue holds %q at %d: %s", c, i, v)
		}
		if c == '\\' && (i+1 == len(v) || v[i+1] != 'u' && v[i+1] != '"') {
			t.Fatalf("ListValue holds a backslash other than \\u or \\\" at %d: %s", i, v)
		}
	}
}

// Values with '$', control bytes and backslashes read back as they were
// set, on every release: tmux 3.4 and 3.5 escape them when they print.
func TestReadFields_RealServer(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("work", "sleep", "600")
	// A user option: tmux keeps its value as set (window names, say, it
	// stores escaped on every release).
	value := "$HOME ${x} C:\\path\tq\x01 ✻"
	ts.Tmux("set-option", "-p", "-t", pane, "@codeman-field", value)
	ctx := context.Background()
	srv := Server{Socket: ts.Socket()}
	c := startClient(t, srv, "work", ClientOptions{})
	for rname, r := range map[string]Runner{"Exec": srv, "Control": c} {
		got, err := ReadFields(ctx, r, pane, "#{pane_id}", "#{@codeman-field}", "#{session_name}")
		if err != nil {
			t.Fatalf("%s: %v", rname, err)
		}
		if want := []string{pane, value, "work"}; !slices.Equal(got, want) {
			t.Errorf("%s: ReadFields = %q, want %q", rname, got, want)
		}
	}

	values := []string{"prompt=$HOME says \"hi\"\n\x1b[1m", `C:\new\033`, "日本 🚀"}
	if err := srv.SetPaneOption(ctx, pane, "@codeman-test", ListValue(values)); err != nil {
		t.Fatal(err)
	}
	v, ok, err := srv.PaneOption(ctx, pane, "@codeman-test")
	var back []string
	if err == nil && ok {
		err = json.Unmarshal([]byte(v), &back)
	}
	if err != nil || !slices.Equal(back, values) {
		t.Fatalf("list option reads back %q (%q, %v, %v), want %q", back, v, ok, err, values)
	}
}

// A pane whose program names itself with tmux's field separator is
// refused with an error that says so, never read as other fields. (tmux
// 3.7 shows such a name as empty, which reads fine.)
func TestResolvePane_SeparatorInCommand(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("work", "bash", "-c", `exec -a $'x\x1fy\\037z' sleep 600`)
	ts.WaitFor(pane, func(string) bool {
		out, _ := ts.Run("display-message", "-p", "-t", pane, "#{pane_current_command}")
		return strings.TrimSpace(out) != "bash"
	}, "the renamed program", 5*time.Second)
	p, err := Server{Socket: ts.Socket()}.ResolvePane(context.Background(), pane)
	switch {
	case err != nil && !strings.Contains(err.Error(), "separator"):
		t.Fatalf("ResolvePane = %v, want an error naming the separator", err)
	case err == nil && (p.ID != pane || p.Session != "work" || strings.Contains(p.Command, "\x1f")):
		t.Fatalf("ResolvePane = %+v, nil; want pane %s of session work, or an error", p, pane)
	}

	// Such a pane hides no other pane of the server from adoption.
	other := ts.NewSession("other", "sleep", "600")
	ts.Tmux("set-option", "-p", "-t", other, OptionEnabled, "on")
	panes, err := Server{Socket: ts.Socket()}.ListPanes(context.Background())
	var ids []string
	for _, lp := range panes {
		ids = append(ids, lp.ID)
	}
	if !slices.Contains(ids, other) || slices.Contains(ids, pane) && err != nil {
		t.Fatalf("ListPanes = %v, %v; want %s listed", ids, err, other)
	}
}
