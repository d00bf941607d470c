package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// statusLine attaches a real client to a session of srv, inside a pane of
// a second server, and returns a function that waits until the client's
// status line (the pane's last row) reads want.
func statusLine(t *testing.T, srv *tmuxtest.Server) func(want string) {
	t.Helper()
	srv.Tmux("set-option", "-g", "display-time", "0") // a message stays until the next one
	host := tmuxtest.NewServer(t)
	pane := host.NewSession("host", "env", "-u", "TMUX", "tmux", "-S", srv.Socket(), "attach", "-t", "work")
	lastRow := func(screen string) string {
		rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
		return strings.TrimRight(rows[len(rows)-1], " ")
	}
	host.WaitFor(pane, func(s string) bool { return strings.Contains(lastRow(s), "[work]") }, "the client's status line", 10*time.Second)
	return func(want string) {
		t.Helper()
		host.WaitFor(pane, func(s string) bool { return lastRow(s) == want }, "the message "+want, 10*time.Second)
	}
}

// The plugin shows codeman's words as they are: display-message would read
// them as a format (#{...}, #(...), #[...], ##, strftime's %) and tmux's
// argument parser would take a final ';' as the end of the command.
func TestDisplay_ShowsTextAsItIs(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	expect := statusLine(t, srv)
	for _, tc := range []struct{ text, want string }{
		{"codeman: #{pane_id} ## #S #(echo ran) 100% %H:%M", ""},
		{"styles #[fg=red]red ##[x] a##b#[ #[default]#", ""},
		{"[#] # ; and a final;", ""},
		{"-x looks like a flag \\;", ""},
		{"two\nlines", "two lines"},
	} {
		cmd := exec.Command("bash", "-c", `source ./helpers.sh && display "$1"`, "display", tc.text)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMUX=" + srv.Socket() + ",0,0"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("display %q: %v\n%s", tc.text, err, out)
		}
		want := tc.want
		if want == "" {
			want = tc.text
		}
		expect(want)
	}
}

// The key binding's script shows what codeman printed, format syntax and
// all.
func TestToggle_ShowsCodemanOutputAsItIs(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	pane := srv.NewSession("work", "sleep", "600")
	expect := statusLine(t, srv)
	bin := filepath.Join(t.TempDir(), "codeman")
	script := "#!/bin/sh\nprintf '%s\\n' 'codeman: #{pane_id} is 100% ##watched #[bold];'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv.Tmux("set-option", "-g", "@codeman-bin", bin)
	cmd := exec.Command("./toggle.sh", srv.Socket(), pane)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMUX=" + srv.Socket() + ",0,0"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("toggle.sh: %v\n%s", err, out)
	}
	expect("codeman: #{pane_id} is 100% ##watched #[bold];")
}
