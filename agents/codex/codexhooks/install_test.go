package codexhooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
)

const handler = "/opt/codeman/codeman-hook"

func testOptions(t *testing.T) codexhooks.Options {
	t.Helper()
	return codexhooks.Options{Home: t.TempDir(), Binary: "/opt/codeman/codeman", Handler: handler}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// trustState decodes config.toml's hooks.state: key -> trusted_hash.
func trustState(t *testing.T, home string) map[string]string {
	t.Helper()
	var doc struct {
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if _, err := toml.DecodeFile(codexhooks.ConfigPath(home), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range doc.Hooks.State {
		out[k] = v.TrustedHash
	}
	return out
}

func mustHash(t *testing.T, event string, timeout int) string {
	t.Helper()
	h, err := codexhooks.Hash(event, "", handler, timeout)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestInstall_FreshHome(t *testing.T) {
	opts := testOptions(t)
	rep, err := codexhooks.Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || !rep.ConfigChanged || len(rep.Added) != len(codexhooks.Entries) || len(rep.Trusted) != len(codexhooks.Entries) {
		t.Fatalf("report %+v", rep)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, codexhooks.HooksPath(opts.Home))), &doc); err != nil {
		t.Fatal(err)
	}
	state := trustState(t, opts.Home)
	for _, e := range codexhooks.Entries {
		groups := doc.Hooks[e.Event]
		if len(groups) != 1 || groups[0].Matcher != nil || len(groups[0].Hooks) != 1 {
			t.Fatalf("%s groups %+v", e.Event, groups)
		}
		h := groups[0].Hooks[0]
		want := 5
		if e.Event == "SessionEnd" || e.Event == "Interrupt" {
			want = 3 // Codex clamps these two
		}
		if h.Type != "command" || h.Command != handler || h.Timeout != want {
			t.Errorf("%s hook %+v", e.Event, h)
		}
		key := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), e.Event, 0, 0)
		if state[key] != mustHash(t, e.Event, want) {
			t.Errorf("trust of %s = %q", key, state[key])
		}
	}
	if len(state) != len(codexhooks.Entries) {
		t.Errorf("%d trust entries, want %d", len(state), len(codexhooks.Entries))
	}
	if info, err := os.Stat(codexhooks.ConfigPath(opts.Home)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("config.toml %v, %v", info, err)
	}
	st, err := codexhooks.Status(opts)
	if err != nil || !st.UpToDate() || len(st.Handlers) != len(codexhooks.Entries) {
		t.Fatalf("status %+v, %v", st, err)
	}

	again, err := codexhooks.Install(opts)
	if err != nil || again.Changed || again.ConfigChanged {
		t.Fatalf("second install %+v, %v", again, err)
	}

	rep, err = codexhooks.Uninstall(opts)
	if err != nil || !rep.Changed || len(rep.Untrusted) != len(codexhooks.Entries) {
		t.Fatalf("uninstall %+v, %v", rep, err)
	}
	for _, p := range []string{codexhooks.HooksPath(opts.Home), codexhooks.ConfigPath(opts.Home)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left after uninstall: %v", p, err)
		}
	}
}

const userConfig = `# my Codex config
model = "gpt-5.5"   # the usual

[projects."/home/u/proj"]
trust_level = "trusted"

# my own hook's trust, written by Codex
[hooks.state."/elsewhere/hooks.json:stop:0:0"]
trusted_hash = "sha256:0000"
[tui]
show_tooltips = false
`

const userHooks = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [{"type": "command", "command": "notify-send done", "timeout": 30}]
      }
    ]
  },
  "other": true
}
`

// A user's config.toml and hooks.json keep every byte of theirs, and
// uninstall gives both back as they were.
func TestInstall_KeepsUserFiles(t *testing.T) {
	opts := testOptions(t)
	writeFile(t, codexhooks.ConfigPath(opts.Home), userConfig)
	writeFile(t, codexhooks.HooksPath(opts.Home), userHooks)
	if _, err := codexhooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	config := readFile(t, codexhooks.ConfigPath(opts.Home))
	if !strings.HasPrefix(config, userConfig+"\n[hooks.state.") {
		t.Errorf("config.toml after install:\n%s", config)
	}
	state := trustState(t, opts.Home)
	stop := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "Stop", 1, 0)
	if state[stop] != mustHash(t, "Stop", 5) {
		t.Errorf("Stop trusted at %v", state)
	}
	if _, ok := state[codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "Stop", 0, 0)]; ok {
		t.Error("the user's Stop hook was trusted")
	}
	if _, err := codexhooks.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != userConfig {
		t.Errorf("config.toml after uninstall:\n%q\nwant\n%q", got, userConfig)
	}
	if got := readFile(t, codexhooks.HooksPath(opts.Home)); got != userHooks {
		t.Errorf("hooks.json after uninstall:\n%s", got)
	}
}

// A user's hook put in front of codeman's shifts its index: the next
// install trusts it at its new place and drops codeman's hash from the
// old one, which the user's own hook now holds.
func TestInstall_RewritesShiftedState(t *testing.T) {
	opts := testOptions(t)
	if _, err := codexhooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	path := codexhooks.HooksPath(opts.Home)
	var doc map[string]map[string][]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	mine := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "mine", "timeout": 7}}}
	doc["hooks"]["Stop"] = append([]any{mine}, doc["hooks"]["Stop"]...)
	data, _ := json.Marshal(doc)
	writeFile(t, path, string(data))

	st, err := codexhooks.Status(opts)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpToDate() {
		t.Error("status up to date with codeman's Stop hook untrusted")
	}
	for _, h := range st.Handlers {
		if want := map[bool]string{true: codexhooks.TrustMissing, false: codexhooks.TrustTrusted}[h.Event == "Stop"]; h.Trust != want {
			t.Errorf("%s trust %s, want %s", h.Event, h.Trust, want)
		}
	}

	rep, err := codexhooks.Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	old, moved := codexhooks.StateKey(path, "Stop", 0, 0), codexhooks.StateKey(path, "Stop", 1, 0)
	if len(rep.Trusted) != 1 || rep.Trusted[0] != moved || len(rep.Untrusted) != 1 || rep.Untrusted[0] != old {
		t.Errorf("trusted %v, untrusted %v", rep.Trusted, rep.Untrusted)
	}
	state := trustState(t, opts.Home)
	if _, ok := state[old]; ok || state[moved] != mustHash(t, "Stop", 5) {
		t.Errorf("state %v", state)
	}
	if st, err := codexhooks.Status(opts); err != nil || !st.UpToDate() {
		t.Errorf("status after install %+v, %v", st, err)
	}
}

// A table of codeman's key that holds more than the hash keeps the rest.
func TestInstall_KeepsOtherStateKeys(t *testing.T) {
	opts := testOptions(t)
	key := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "Stop", 0, 0)
	config := "[hooks.state.\"" + key + "\"]\nenabled = true # kept\n"
	writeFile(t, codexhooks.ConfigPath(opts.Home), config)
	if _, err := codexhooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, codexhooks.ConfigPath(opts.Home))
	if !strings.Contains(got, "[hooks.state.\""+key+"\"]\ntrusted_hash = \""+mustHash(t, "Stop", 5)+"\"\nenabled = true # kept\n") {
		t.Errorf("config.toml:\n%s", got)
	}
	if _, err := codexhooks.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != config {
		t.Errorf("after uninstall:\n%q\nwant\n%q", got, config)
	}
}

func TestInstall_NoTrust(t *testing.T) {
	opts := testOptions(t)
	opts.NoTrust = true
	rep, err := codexhooks.Install(opts)
	if err != nil || !rep.Changed || rep.ConfigChanged {
		t.Fatalf("install %+v, %v", rep, err)
	}
	if _, err := os.Stat(codexhooks.ConfigPath(opts.Home)); !os.IsNotExist(err) {
		t.Errorf("config.toml written: %v", err)
	}
	st, err := codexhooks.Status(opts)
	if err != nil || st.UpToDate() || st.Handlers[0].Trust != codexhooks.TrustMissing {
		t.Errorf("status %+v, %v", st, err)
	}
}

// A config.toml that does not parse stops the install before hooks.json
// changes, naming the file and line.
func TestInstall_RefusesBrokenConfig(t *testing.T) {
	opts := testOptions(t)
	writeFile(t, codexhooks.ConfigPath(opts.Home), "model = \"x\"\n\nmodel = \"y\"\n")
	_, err := codexhooks.Install(opts)
	if err == nil || !strings.Contains(err.Error(), codexhooks.ConfigPath(opts.Home)+":3:") {
		t.Fatalf("err = %v, want one naming %s:3", err, codexhooks.ConfigPath(opts.Home))
	}
	if _, err := os.Stat(codexhooks.HooksPath(opts.Home)); !os.IsNotExist(err) {
		t.Errorf("hooks.json written: %v", err)
	}
}

func TestInstall_RefusesBrokenHooks(t *testing.T) {
	opts := testOptions(t)
	writeFile(t, codexhooks.HooksPath(opts.Home), "{\n  \"hooks\": {,\n}\n")
	_, err := codexhooks.Install(opts)
	if err == nil || !strings.Contains(err.Error(), codexhooks.HooksPath(opts.Home)+":2") {
		t.Fatalf("err = %v", err)
	}
}

func TestInstall_RefusesSpecialFiles(t *testing.T) {
	for _, name := range []string{"hooks.json", "config.toml"} {
		t.Run(name, func(t *testing.T) {
			opts := testOptions(t)
			path := filepath.Join(opts.Home, name)
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := codexhooks.Install(opts); err == nil || !strings.Contains(err.Error(), "FIFO") {
				t.Errorf("FIFO: err = %v", err)
			}
			os.Remove(path)
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
			if _, err := codexhooks.Install(opts); err == nil || !strings.Contains(err.Error(), "directory") {
				t.Errorf("directory: err = %v", err)
			}
		})
	}
}

func TestHome(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	real, _ := filepath.EvalSymlinks(dir)
	if got, err := codexhooks.Home(env(map[string]string{"CODEX_HOME": link, "HOME": "/h"})); err != nil || got != real {
		t.Errorf("Home with CODEX_HOME = %q, %v; want %q", got, err, real)
	}
	if got, err := codexhooks.Home(env(map[string]string{"HOME": "/h"})); err != nil || got != "/h/.codex" {
		t.Errorf("Home = %q, %v", got, err)
	}
	if _, err := codexhooks.Home(env(map[string]string{"CODEX_HOME": filepath.Join(dir, "missing")})); err == nil {
		t.Error("a missing CODEX_HOME was accepted")
	}
}
