package codexhooks_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
)

// checkUntouched expects config.toml to hold config and hooks.json to be
// missing: a refused install writes neither.
func checkUntouched(t *testing.T, home, config string) {
	t.Helper()
	if got := readFile(t, codexhooks.ConfigPath(home)); got != config {
		t.Errorf("config.toml changed:\n%q\nwant\n%q", got, config)
	}
	for _, p := range []string{codexhooks.HooksPath(home), codexhooks.HooksPath(home) + ".codeman-hooks"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s written by a refused install: %v", p, err)
		}
	}
}

// A trusted hash the user has at the key codeman's handler lands on is
// not overwritten: install refuses, naming file, line and key, and writes
// nothing; uninstall leaves the line, its table and comments.
func TestInstall_KeepsUsersHash(t *testing.T) {
	for name, table := range map[string]string{
		"comments":  "# my trust\n[hooks.state.%q]\n# keep me\ntrusted_hash = \"sha256:mine\"\n",
		"canonical": "[hooks.state.%q]\ntrusted_hash = \"sha256:mine\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			opts := testOptions(t)
			key := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "SessionStart", 0, 0)
			config := "model = \"gpt-5.5\"\n\n" + strings.Replace(table, "%q", `"`+key+`"`, 1)
			writeFile(t, codexhooks.ConfigPath(opts.Home), config)
			line := 1 + strings.Count(config[:strings.Index(config, "trusted_hash")], "\n")
			_, err := codexhooks.Install(opts)
			if err == nil {
				t.Fatal("install overwrote the user's trusted hash")
			}
			for _, want := range []string{codexhooks.ConfigPath(opts.Home) + ":" + strconv.Itoa(line) + ":", key, "did not write", "--no-trust"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			checkUntouched(t, opts.Home, config)
			if _, err := codexhooks.Uninstall(opts); err != nil {
				t.Fatal(err)
			}
			checkUntouched(t, opts.Home, config)
		})
	}
}

// A table of the user's that already trusts codeman's handler, in any
// spelling, is the user's: install leaves it, and uninstall neither
// removes it nor deletes the config.toml that holds it.
func TestUninstall_KeepsUsersTrust(t *testing.T) {
	for name, header := range map[string]string{
		"spaced literal": "[ hooks . state . '%s' ]",
		"literal":        "[hooks.state.'%s']",
		"spaced dots":    "[hooks . state . \"%s\"]",
	} {
		t.Run(name, func(t *testing.T) {
			opts := testOptions(t)
			key := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "SessionStart", 0, 0)
			config := strings.Replace(header, "%s", key, 1) + "\ntrusted_hash = \"" + mustHash(t, "SessionStart", 5) + "\"\n"
			writeFile(t, codexhooks.ConfigPath(opts.Home), config)
			if _, err := codexhooks.Install(opts); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, codexhooks.ConfigPath(opts.Home)); !strings.HasPrefix(got, config) {
				t.Errorf("install changed the user's table:\n%s", got)
			}
			if st, err := codexhooks.Status(opts); err != nil || !st.UpToDate() {
				t.Errorf("status after install: %+v, %v", st, err)
			}
			if _, err := codexhooks.Uninstall(opts); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != config {
				t.Errorf("config.toml after uninstall:\n%q\nwant\n%q", got, config)
			}
		})
	}
}

// Every byte of the user's stays as it was, a missing final newline too:
// install puts codeman's tables after the last line, and uninstall gives
// the file back byte for byte.
func TestInstall_NoFinalNewline(t *testing.T) {
	opts := testOptions(t)
	stop := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "Stop", 0, 0)
	for _, config := range []string{
		"model = \"gpt-5.5\"",
		"model = \"gpt-5.5\"  # the usual",
		"[hooks.state.\"" + stop + "\"]",
		"[hooks.state.\"" + stop + "\"]\nenabled = true",
	} {
		writeFile(t, codexhooks.ConfigPath(opts.Home), config)
		if _, err := codexhooks.Install(opts); err != nil {
			t.Fatalf("%q: %v", config, err)
		}
		got := readFile(t, codexhooks.ConfigPath(opts.Home))
		if !strings.HasPrefix(got, strings.SplitN(config, "\n", 2)[0]+"\n") {
			t.Errorf("%q: install gave\n%s", config, got)
		}
		if state := trustState(t, opts.Home); len(state) != len(codexhooks.Entries) {
			t.Errorf("%q: %d trusted, want %d", config, len(state), len(codexhooks.Entries))
		}
		if _, err := codexhooks.Uninstall(opts); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != config {
			t.Errorf("after uninstall:\n%q\nwant\n%q", got, config)
		}
	}
}

// A config.toml Codex reads but codeman's edit cannot take stops the
// install before hooks.json is written, naming the file and line; a UTF-8
// BOM, which Codex accepts, is kept.
func TestInstall_ChecksConfigFirst(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
		mode               os.FileMode
	}{
		{"inline hooks", "model = \"x\"\nhooks = { state = {} }\n", ":2: hooks is an inline table", 0o644},
		{"inline state", "[hooks]\nstate = {}\n", ":2: hooks.state is an inline table", 0o644},
		{"string", "model = \"x\"\nhooks = \"x\"\n", ":2: hooks is a string, not a table", 0o644},
		{"array of tables", "model = \"x\"\n\n[[hooks]]\nx = 1\n", ":3: hooks is an array of tables ([[hooks]])", 0o644},
		{"read-only", "model = \"x\"\n", "read-only", 0o444},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions(t)
			path := codexhooks.ConfigPath(opts.Home)
			writeFile(t, path, tc.config)
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			_, err := codexhooks.Install(opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("install: %v, want an error naming %s and %q", err, path, tc.want)
			}
			checkUntouched(t, opts.Home, tc.config)
			// --no-trust leaves config.toml alone, and so installs.
			opts.NoTrust = true
			if _, err := codexhooks.Install(opts); err != nil {
				t.Errorf("install --no-trust: %v", err)
			}
		})
	}

	opts := testOptions(t)
	config := "\xef\xbb\xbfmodel = \"x\"\n"
	writeFile(t, codexhooks.ConfigPath(opts.Home), config)
	if _, err := codexhooks.Install(opts); err != nil {
		t.Fatalf("BOM: %v", err)
	}
	if got := readFile(t, codexhooks.ConfigPath(opts.Home)); !strings.HasPrefix(got, config+"\n[hooks.state.") {
		t.Errorf("BOM: install gave\n%q", got)
	}
	if st, err := codexhooks.Status(opts); err != nil || !st.UpToDate() {
		t.Errorf("BOM: status %+v, %v", st, err)
	}
	if _, err := codexhooks.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != config {
		t.Errorf("BOM: after uninstall %q, want %q", got, config)
	}
}

// A leftover enabled = false at codeman's key is reported, with its line,
// by install and status alike; codeman leaves the line to the person.
func TestInstall_ReportsDisabled(t *testing.T) {
	opts := testOptions(t)
	stop := codexhooks.StateKey(codexhooks.HooksPath(opts.Home), "Stop", 0, 0)
	config := "model = \"x\"\n\n[hooks.state.\"" + stop + "\"]\nenabled = false\n"
	writeFile(t, codexhooks.ConfigPath(opts.Home), config)
	rep, err := codexhooks.Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Disabled) != 1 || rep.Disabled[0].Event != "Stop" || rep.Disabled[0].Key != stop || rep.Disabled[0].Line != 4 {
		t.Errorf("install reported disabled %+v, want Stop at line 4", rep.Disabled)
	}
	// The trusted hash goes above it, where the next reads find it.
	again, err := codexhooks.Install(opts)
	if err != nil || again.ConfigChanged || len(again.Disabled) != 1 || again.Disabled[0].Line != 5 {
		t.Errorf("second install %+v, %v; want nothing written and Stop at line 5 reported", again, err)
	}
	st, err := codexhooks.Status(opts)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpToDate() || len(st.Disabled()) != 1 || st.Disabled()[0].Event != "Stop" || st.Disabled()[0].Line != 5 {
		t.Errorf("status disabled %+v, want Stop at line 5", st.Disabled())
	}
	if _, err := codexhooks.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != config {
		t.Errorf("after uninstall:\n%q\nwant\n%q", got, config)
	}
}
