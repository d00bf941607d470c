package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeConfig makes config.toml hold text under a fresh XDG_CONFIG_HOME
// and returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	path := filepath.Join(dir, "codeman", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// config print shows the webhook's URL, and URLs among the command's
// arguments, without their secrets; the file keeps them.
func TestConfigPrint_MasksNotifySecrets(t *testing.T) {
	text := "[notify]\nurl = \"https://bob:s3cret@ntfy.example.com/secret-topic?auth=tok3n&priority=high\"\n" +
		"command = [\"curl\", \"-d\", \"@-\", \"https://eve:pw9x@hooks.example.com/T0/B0/XXXX\"]\n" +
		"[notify.answer]\ntopic = \"https://ntfy.example.com/replies-s3kr1t\"\naccess_token = \"tk_s3kr1t\"\n"
	path := writeConfig(t, text)
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, io.Discard
	if err := app.Run([]string{"codeman", "config", "print"}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"# The secrets of [notify] show as …; the file keeps them.\n",
		"\nurl = \"https://bob:…@ntfy.example.com/…?auth=…&priority=high\"\n",
		"\ncommand = [\"curl\", \"-d\", \"@-\", \"https://eve:…@hooks.example.com/…\"]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("config print lacks %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{"s3cret", "secret-topic", "tok3n", "pw9x", "XXXX", "s3kr1t"} {
		if strings.Contains(got, secret) {
			t.Errorf("config print shows %q:\n%s", secret, got)
		}
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != text {
		t.Errorf("the file changed: %q, %v", data, err)
	}
}

// Without secrets, config print says nothing of them.
func TestConfigPrint_NoSecretsNoNote(t *testing.T) {
	writeConfig(t, "[notify]\nurl = \"https://ntfy.sh/\"\n")
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, io.Discard
	if err := app.Run([]string{"codeman", "config", "print"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "secrets") || !strings.Contains(out.String(), "\nurl = \"https://ntfy.sh/\"\n") {
		t.Errorf("config print:\n%s", out.String())
	}
}
