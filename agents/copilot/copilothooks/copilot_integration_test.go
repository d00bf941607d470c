package copilothooks_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/hooks/spool"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// copilotCLI is the pinned GitHub Copilot CLI: $CODEMAN_E2E_COPILOT when
// set, else the install of scripts/install-copilot.sh.
func copilotCLI() clitest.CLI {
	return clitest.CLI{
		Pkg:     "copilothooks",
		Name:    "GitHub Copilot CLI",
		Env:     "CODEMAN_E2E_COPILOT",
		Script:  "scripts/install-copilot.sh",
		Version: "1.0.102",
		Dir:     copilotDir(),
		Binaries: []string{
			"node_modules/@github/copilot-linux-x64/copilot",
			"node_modules/@github/copilot-linuxmusl-x64/copilot",
			"node_modules/@github/copilot-linux-arm64/copilot",
			"node_modules/@github/copilot-linuxmusl-arm64/copilot",
		},
	}
}

// copilotDir is where scripts/install-copilot.sh installs the CLI, and
// unpacks it into cache/ for runs to share.
func copilotDir() string { return clitest.CacheDir("CODEMAN_E2E_COPILOT_DIR", "codeman-e2e-copilot") }

// runDeadline bounds one `copilot -p` run: under a second against the
// fake, more on a loaded machine or when the CLI unpacks itself first.
const runDeadline = 2 * time.Minute

// buildHandler builds codeman-hook into dir.
func buildHandler(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("copilothooks: go not found in PATH: cannot build codeman-hook")
	}
	out := filepath.Join(dir, hooks.HandlerName)
	cmd := exec.Command(goTool, "build", "-o", out, hooks.HandlerPackage)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build codeman-hook: %v\n%s", err, msg)
	}
	return out
}

// closedPort is a loopback address nothing listens on, for the proxies,
// so that nothing leaves the machine.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// The real Copilot CLI runs the hooks `codeman hooks install --agent
// copilot` writes: a prompt run offline against the fake Responses API,
// in a fake tmux pane, leaves the pane's prompt_submitted and stop
// markers, each with the event its command line named.
func TestCopilot_HooksReachTheSpool(t *testing.T) {
	copilot := copilotCLI().Require(t)
	tmp := t.TempDir()
	handler := buildHandler(t, tmp)
	home, chome, proj, runtime := filepath.Join(tmp, "home"), filepath.Join(tmp, "chome"), filepath.Join(tmp, "proj"), filepath.Join(tmp, "run")
	for _, d := range []string{home, proj} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"COPILOT_HOME": chome, "HOME": home}
	var out strings.Builder
	r := hooks.Request{Env: func(k string) string { return env[k] }, Binary: filepath.Join(tmp, "codeman"), Handler: handler}
	if err := (copilothooks.Installer{}).Install(&out, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("install:\n%s", out.String())

	api := fakeopenai.New(t)
	api.Handle("say hi", fakeopenai.Reply{Text: "Hi from the fake."})
	proxy := closedPort(t)
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, copilot, "-p", "say hi", "-s", "--no-auto-update")
	cmd.Dir = proj
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"COPILOT_HOME=" + chome,
		"COPILOT_CACHE_HOME=" + filepath.Join(copilotDir(), "cache"),
		"COPILOT_PROVIDER_BASE_URL=" + api.BaseURL(),
		"COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_WIRE_API=responses",
		"COPILOT_MODEL=gpt-5.5",
		"COPILOT_PROVIDER_API_KEY=fake-key",
		"COPILOT_OFFLINE=true",
		"COPILOT_AUTO_UPDATE=false",
		"HTTP_PROXY=" + proxy, "HTTPS_PROXY=" + proxy, "ALL_PROXY=" + proxy,
		"http_proxy=" + proxy, "https_proxy=" + proxy, "all_proxy=" + proxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		// The pane the hooks find themselves in, and where they write.
		"TMUX=/tmp/tmux-fake/default,4242,0",
		"TMUX_PANE=%9",
		"XDG_RUNTIME_DIR=" + runtime,
	}
	stdout, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("copilot -p: %v\nstdout %s\nstderr %s", err, stdout, msg)
	}
	if !strings.Contains(string(stdout), "Hi from the fake.") {
		t.Errorf("copilot -p printed %q", stdout)
	}
	// Copilot waits for each hook before it goes on, and for agentStop
	// before it exits, so the markers are there once it has.
	dir := filepath.Join(runtime, "codeman", "spool")
	// The events of no signal (sessionStart, sessionEnd) share one
	// marker, the latest.
	if others, _ := filepath.Glob(filepath.Join(dir, "*-other.json")); len(others) != 1 {
		t.Errorf("markers of the events without a signal: %v", others)
	}
	for kind, event := range map[string]string{"prompt_submitted": "userPromptSubmitted", "stop": "agentStop"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*-"+kind+".json"))
		if len(paths) != 1 {
			names, _ := os.ReadDir(dir)
			t.Errorf("no %s marker in the spool: %v", kind, names)
			continue
		}
		m, err := spool.Read(paths[0], spool.MaxMarkerSize)
		if err != nil {
			t.Fatal(err)
		}
		if m.Event != event || m.Pane != "tmux:/tmp/tmux-fake/default:%9" || m.SessionID == "" {
			t.Errorf("%s marker %+v", kind, m)
		}
	}
}
