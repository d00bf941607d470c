package opencodehooks_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/hooks/spool"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/opencodetest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// runDeadline bounds one `opencode run`: about 5 s against the fake.
const runDeadline = 2 * time.Minute

// buildHandler builds codeman-hook into dir.
func buildHandler(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("opencodehooks: go not found in PATH: cannot build codeman-hook")
	}
	out := filepath.Join(dir, hooks.HandlerName)
	if msg, err := exec.Command(goTool, "build", "-o", out, hooks.HandlerPackage).CombinedOutput(); err != nil {
		t.Fatalf("go build codeman-hook: %v\n%s", err, msg)
	}
	return out
}

// The real OpenCode loads the plugin `codeman hooks install --agent
// opencode` writes: a prompt run offline against the fake Messages API,
// in a fake tmux pane, leaves the pane's prompt_submitted and stop
// markers, each with the event the plugin named and the session.
func TestOpenCode_PluginReachesTheSpool(t *testing.T) {
	opencode := opencodetest.Require(t)
	tmp := t.TempDir()
	home, proj, runtime := filepath.Join(tmp, "home"), filepath.Join(tmp, "proj"), filepath.Join(tmp, "run")
	for _, d := range []string{home, proj, runtime} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	configDir := filepath.Join(home, ".config", "opencode")
	if err := opencodetest.SeedConfigDir(configDir); err != nil {
		t.Skip(err)
	}
	handler := buildHandler(t, tmp)
	var out strings.Builder
	env := map[string]string{"HOME": home}
	r := hooks.Request{Env: func(k string) string { return env[k] }, Binary: filepath.Join(tmp, "codeman"), Handler: handler}
	if err := (opencodehooks.Installer{}).Install(&out, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("install:\n%s", out.String())

	api := fakeapi.New(t)
	api.Handle("say hi", fakeapi.Reply{Text: "Hi from the fake."})
	providerEnv, err := opencodetest.ProviderEnv(opencodetest.Config(api.URL()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, opencode, "run", "say hi")
	cmd.Dir = proj
	cmd.Env = append(providerEnv,
		"PATH="+os.Getenv("PATH"),
		"HOME="+home,
		// The pane the plugin's runs find themselves in, and where they
		// write.
		"TMUX=/tmp/tmux-fake/default,4242,0",
		"TMUX_PANE=%9",
		"XDG_RUNTIME_DIR="+runtime,
	)
	stdout, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("opencode run: %v\nstdout %s\nstderr %s", err, stdout, msg)
	}
	if !strings.Contains(string(stdout), "Hi from the fake.") {
		t.Errorf("opencode run printed %q", stdout)
	}
	// The plugin's runs are its own processes: the last may still be
	// writing its marker when opencode has exited.
	dir := filepath.Join(runtime, "codeman", "spool")
	marker := func(kind string) string {
		paths, _ := filepath.Glob(filepath.Join(dir, "*-"+kind+".json"))
		if len(paths) != 1 {
			return ""
		}
		return paths[0]
	}
	wait.For(t, "the stop marker", 10*time.Second, func() bool { return marker("stop") != "" })
	for kind, event := range map[string]string{"prompt_submitted": "chat.message", "stop": "session.idle", "tool_started": "session.status"} {
		path := marker(kind)
		if path == "" {
			names, _ := os.ReadDir(dir)
			t.Errorf("no %s marker in the spool: %v", kind, names)
			continue
		}
		m, err := spool.Read(path, spool.MaxMarkerSize)
		if err != nil {
			t.Fatal(err)
		}
		if m.Event != event || m.Pane != "tmux:/tmp/tmux-fake/default:%9" || !strings.HasPrefix(m.SessionID, "ses_") {
			t.Errorf("%s marker %+v", kind, m)
		}
	}
}
