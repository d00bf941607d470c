package scripts

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

func pluginPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "tmux-plugin.tmux"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// binding returns the list-keys line of key in the prefix table, or "".
// It lists the whole table: from tmux 3.7 on, `list-keys -T prefix KEY`
// shows a single binding on the status line instead of printing it.
func binding(t *testing.T, srv *tmuxtest.Server, key string) string {
	t.Helper()
	for line := range strings.SplitSeq(srv.Tmux("list-keys", "-T", "prefix"), "\n") {
		f := strings.Fields(line)
		for i := 0; i+2 < len(f); i++ {
			if f[i] == "-T" {
				if f[i+1] == "prefix" && f[i+2] == key {
					return line
				}
				break
			}
		}
	}
	return ""
}

func TestPlugin_BindsKeyAndStatus(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	srv.Tmux("set-option", "-g", "status-right", "#{codeman_status}%H:%M")
	srv.Tmux("run-shell", pluginPath(t))

	keys := binding(t, srv, "A")
	if !strings.Contains(keys, "scripts/toggle.sh") || !strings.Contains(keys, "#{pane_id}") {
		t.Fatalf("prefix A is bound to %q", keys)
	}
	right := srv.Tmux("show-options", "-gv", "status-right")
	if strings.Contains(right, "codeman_status") || !strings.Contains(right, "@codeman-state") || !strings.HasSuffix(strings.TrimSpace(right), "%H:%M") {
		t.Fatalf("status-right = %q", right)
	}

	// A reload changes nothing.
	srv.Tmux("run-shell", pluginPath(t))
	if again := srv.Tmux("show-options", "-gv", "status-right"); again != right {
		t.Fatalf("reload changed status-right:\n%q\n%q", right, again)
	}

	// The state shows through the format without any process.
	pane := strings.TrimSpace(srv.Tmux("display-message", "-p", "#{pane_id}"))
	srv.Tmux("set-option", "-p", "-t", pane, "@codeman-state", "watching")
	if got := srv.Tmux("display-message", "-p", "-t", pane, right); !strings.Contains(got, "[codeman watching]") {
		t.Fatalf("status renders %q", got)
	}
}

func TestPlugin_KeyOption(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	srv.Tmux("set-option", "-g", "@codeman-key", "y")
	srv.Tmux("run-shell", pluginPath(t))
	if keys := binding(t, srv, "y"); !strings.Contains(keys, "toggle.sh") {
		t.Fatalf("prefix y is bound to %q", keys)
	}
}

// codeman-bin.sh says what is missing when there is no binary and no Go.
func TestCodemanBin_NoBinaryNoGo(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	plugin := copyBinScripts(t)
	cmd := exec.Command(filepath.Join(plugin, "scripts", "codeman-bin.sh"))
	cmd.Env = []string{"PATH=/usr/bin:/bin", "TMUX=" + srv.Socket() + ",0,0", "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Go is not installed") {
		t.Fatalf("codeman-bin.sh said %q", out)
	}
}

// The plugin writes back the user's status line with only the placeholder
// replaced, on tmux 3.4 and 3.5 too, which print '$' before a name as \$
// and control bytes as \ooo.
func TestPlugin_KeepsTheStatusLine(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	rest := "#(echo $USER ${HOME}) $5 C:\\path \x01 %H:%M"
	srv.Tmux("set-option", "-g", "status-right", "#{codeman_status}"+rest)
	srv.Tmux("run-shell", pluginPath(t))
	right := srv.Tmux("show-options", "-gv", "status-right")
	want := "#{?#{@codeman-state},[codeman #{@codeman-state}] ,}" + rest
	pane := strings.TrimSpace(srv.Tmux("display-message", "-p", "#{pane_id}"))
	srv.Tmux("set-option", "-p", "-t", pane, "@codeman-test", want)
	if got := srv.Tmux("display-message", "-p", "#{==:#{status-right},#{@codeman-test}}"); strings.TrimSpace(got) != "1" {
		t.Fatalf("status-right differs from what was set: %q", right)
	}
}
