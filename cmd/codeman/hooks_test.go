package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
	codexhooks "github.com/codeman-dev/codeman/hooks/codex"
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
		{[]string{"hooks", "status", "--agent", "codex", "--project", "."}, "--project applies to --agent claude only"},
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
