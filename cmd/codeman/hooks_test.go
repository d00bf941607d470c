package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/hooks"
)

// fakeInstall makes dir/codeman this binary as far as hooks install is
// concerned, with a user settings file under a home of its own.
func fakeInstall(t *testing.T) (bin, settings string) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "bin", "codeman")
	if err := os.Mkdir(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	writeExecutable(t, bin)
	t.Setenv("HOME", dir)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	prev := executable
	executable = func() (string, error) { return bin, nil }
	t.Cleanup(func() { executable = prev })
	return bin, filepath.Join(dir, ".claude", "settings.json")
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func runCodeman(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	app := newApp()
	app.Writer = &out
	if err := app.Run(append([]string{"codeman"}, args...)); err != nil {
		t.Fatalf("codeman %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

func checkContains(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// hooks install writes codeman-hook when it sits beside codeman, and says
// when it falls back to `codeman hook`; each install turns the entries of
// the one before into its own, in place.
func TestHooksInstall_Handler(t *testing.T) {
	bin, settings := fakeInstall(t)

	out := runCodeman(t, "hooks", "install")
	checkContains(t, "install output", out, "(running "+bin+" hook)", "no codeman-hook beside "+bin, "go install github.com/codeman-dev/codeman/cmd/codeman-hook@latest")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "settings", string(data), `"command": "`+bin+` hook"`)

	handler := filepath.Join(filepath.Dir(bin), hooks.HandlerName)
	writeExecutable(t, handler)
	out = runCodeman(t, "hooks", "install")
	checkContains(t, "upgrade output", out, "(running "+handler+")", "updated: Stop, StopFailure")
	if strings.Contains(out, "no codeman-hook") {
		t.Errorf("upgrade output says codeman-hook is missing:\n%s", out)
	}
	data, err = os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "settings", string(data), `"command": "`+handler+`"`)
	if strings.Contains(string(data), bin+" hook") {
		t.Errorf("settings still run codeman hook:\n%s", data)
	}

	out = runCodeman(t, "hooks", "status")
	checkContains(t, "status output", out, handler, "state: installed and up to date")

	if err := os.Remove(handler); err != nil {
		t.Fatal(err)
	}
	out = runCodeman(t, "hooks", "install")
	checkContains(t, "fallback output", out, "(running "+bin+" hook)", "updated: Stop", "no codeman-hook beside "+bin)
}

// hooks install --agent codex writes Codex's hooks.json and trusts the
// hooks in config.toml; status shows them trusted; uninstall removes
// both files it created.
func TestHooks_Codex(t *testing.T) {
	bin, _ := fakeInstall(t)
	home := filepath.Join(os.Getenv("HOME"), ".codex")
	t.Setenv("CODEX_HOME", "")
	handler := filepath.Join(filepath.Dir(bin), hooks.HandlerName)
	writeExecutable(t, handler)

	out := runCodeman(t, "hooks", "install", "--agent", "codex")
	checkContains(t, "install output", out, "codeman hooks installed in "+filepath.Join(home, "hooks.json"),
		"(running "+handler+")", "trusted in "+filepath.Join(home, "config.toml")+fmt.Sprintf(": %d written", len(codexhooks.Entries)))
	config, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "config.toml", string(config), `[hooks.state."`+filepath.Join(home, "hooks.json")+`:stop:0:0"]`)

	out = runCodeman(t, "hooks", "status", "--agent", "codex")
	checkContains(t, "status output", out, "PreModelRequest", "trusted", "state: installed, up to date and trusted")

	out = runCodeman(t, "hooks", "uninstall", "--agent", "codex")
	checkContains(t, "uninstall output", out, "codeman hooks removed from", "trust removed from")
	for _, name := range []string{"hooks.json", "config.toml"} {
		if _, err := os.Stat(filepath.Join(home, name)); !os.IsNotExist(err) {
			t.Errorf("%s left: %v", name, err)
		}
	}
}

func TestHooks_CodexNoTrust(t *testing.T) {
	fakeInstall(t)
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	out := runCodeman(t, "hooks", "install", "--agent", "codex", "--no-trust")
	checkContains(t, "install output", out, "not trusted in", "Hooks need review")
	if _, err := os.Stat(filepath.Join(home, "config.toml")); !os.IsNotExist(err) {
		t.Errorf("config.toml written: %v", err)
	}
	out = runCodeman(t, "hooks", "status", "--agent", "codex")
	checkContains(t, "status output", out, "untrusted", "not all trusted")
}

func TestHooks_AgentErrors(t *testing.T) {
	fakeInstall(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hooks", "install", "--agent", "gemini"}, `unknown agent "gemini": use one of claude, codex`},
		{[]string{"hooks", "status", "--agent", "codex", "--project", "."}, "--project applies to --agent claude, copilot, opencode only"},
		{[]string{"hooks", "install", "--no-trust"}, "--no-trust applies to --agent codex only"},
	} {
		app := newApp()
		app.Writer = new(bytes.Buffer)
		err := app.Run(append([]string{"codeman"}, tc.args...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("codeman %s: err = %v, want %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}

// --project does something else for each agent that takes it: the help
// names each agent's file; a flag of one agent says whose it is.
func TestHooks_FlagHelp(t *testing.T) {
	help := runCodeman(t, "hooks", "install", "--help")
	checkContains(t, "hooks install --help", help,
		"--project DIR  with --agent claude, use DIR/.claude/settings.local.json instead of the user settings; "+
			"with --agent copilot, use DIR/.github/hooks/codeman.json instead of the user's Copilot hooks",
		"(--agent codex only)")
	if strings.Contains(help, "`") || strings.Contains(help, "(--agent claude, copilot only)") {
		t.Errorf("hooks install --help:\n%s", help)
	}
}

// codeman hooks install run ten times at once, as ten processes, leaves
// one set of hooks; status then says installed, and one uninstall removes
// the file they created.
func TestHooksInstall_Parallel(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	env := append(os.Environ(), asCodemanEnv+"=1", "HOME="+home, "CLAUDE_CONFIG_DIR=")
	run := func(n int, args ...string) {
		t.Helper()
		cmds := make([]*exec.Cmd, n)
		outs := make([]bytes.Buffer, n)
		for i := range cmds {
			cmds[i] = exec.Command(self, args...)
			cmds[i].Env = env
			cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Errorf("codeman %s: %v\n%s", strings.Join(args, " "), err, outs[i].String())
			}
		}
	}
	count := func() int {
		data, err := os.ReadFile(settings)
		if os.IsNotExist(err) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), `"command": "`+self+` hook"`)
	}
	const parallel = 10
	run(parallel, "hooks", "install")
	if n := count(); n != 11 {
		t.Errorf("%d parallel installs left %d hooks of codeman's, want 11", parallel, n)
	}
	cmd := exec.Command(self, "hooks", "status")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "state: installed and up to date") {
		t.Errorf("status: %v\n%s", err, out)
	}
	run(1, "hooks", "uninstall")
	if data, err := os.ReadFile(settings); !os.IsNotExist(err) {
		t.Errorf("uninstall left the settings file the installs created: %q, %v", data, err)
	}
}

// Copies of codeman's hooks are shown, and install keeps one of each.
func TestHooksStatus_Copies(t *testing.T) {
	_, settings := fakeInstall(t)
	runCodeman(t, "hooks", "install")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	doubled := strings.Replace(string(data), `"Stop": [`, `"Stop": [`+stopGroup(t, data)+`,`, 1)
	if err := os.WriteFile(settings, []byte(doubled), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runCodeman(t, "hooks", "status")
	checkContains(t, "status output", out, "copies: Stop", "state: installed, and 1 copy of codeman's hooks run as well", "codeman hooks install to keep one of each")
	out = runCodeman(t, "hooks", "install")
	checkContains(t, "install output", out, "removed: Stop")
	checkContains(t, "status output", runCodeman(t, "hooks", "status"), "state: installed and up to date")
}

// stopGroup is the Stop group of a settings file, as JSON.
func stopGroup(t *testing.T, settings []byte) string {
	t.Helper()
	var doc struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(settings, &doc); err != nil || len(doc.Hooks["Stop"]) == 0 {
		t.Fatalf("no Stop group (%v) in\n%s", err, settings)
	}
	return string(doc.Hooks["Stop"][0])
}

// A leftover enabled = false at codeman's Stop key: install says so, with
// the line, instead of "already trusted", and status says what is wrong
// rather than to run install again.
func TestHooks_CodexDisabled(t *testing.T) {
	bin, _ := fakeInstall(t)
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	writeExecutable(t, filepath.Join(filepath.Dir(bin), hooks.HandlerName))
	config := filepath.Join(home, "config.toml")
	stop := codexhooks.StateKey(filepath.Join(home, "hooks.json"), "Stop", 0, 0)
	if err := os.WriteFile(config, []byte("[hooks.state.\""+stop+"\"]\nenabled = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runCodeman(t, "hooks", "install", "--agent", "codex")
	checkContains(t, "install output", out, "but Stop is disabled: "+config+":2 sets enabled = false", "remove it, or enable the hook in Codex's /hooks")
	out = runCodeman(t, "hooks", "install", "--agent", "codex")
	checkContains(t, "second install output", out, "already trusted", "but Stop is disabled: "+config+":3 sets enabled = false")
	out = runCodeman(t, "hooks", "status", "--agent", "codex")
	checkContains(t, "status output", out, "disabled: Stop ("+config+":3 sets enabled = false)", "state: installed and trusted, but 1 disabled")
	if strings.Contains(out, "run: codeman hooks install") {
		t.Errorf("status tells to run install, which leaves the line:\n%s", out)
	}
}

// A config.toml the trust cannot be written into stops the install before
// hooks.json is written, so Codex never shows codeman's hooks for review.
func TestHooks_CodexRefusedConfig(t *testing.T) {
	fakeInstall(t)
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	config := filepath.Join(home, "config.toml")
	if err := os.WriteFile(config, []byte("hooks = { state = {} }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	app := newApp()
	app.Writer = new(bytes.Buffer)
	err := app.Run([]string{"codeman", "hooks", "install", "--agent", "codex"})
	if err == nil || !strings.Contains(err.Error(), config+":1: hooks is an inline table") {
		t.Fatalf("install: %v, want an error naming %s:1", err, config)
	}
	if _, err := os.Stat(filepath.Join(home, "hooks.json")); !os.IsNotExist(err) {
		t.Errorf("hooks.json written by a refused install: %v", err)
	}
}
