package codex_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/codeman-dev/codeman/hooks/codex"
)

// Copies of codeman's handlers, trusted at their places as an install
// that kept no record would leave them, are codeman's: status says so,
// and uninstall removes them and their trust.
func TestInstall_TrustedCopies(t *testing.T) {
	opts := testOptions(t)
	writeFile(t, codex.ConfigPath(opts.Home), "model = \"gpt-5.5\"\n")
	if _, err := codex.Install(opts); err != nil {
		t.Fatal(err)
	}
	path := codex.HooksPath(opts.Home)
	var doc map[string]map[string][]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	config := readFile(t, codex.ConfigPath(opts.Home))
	for _, e := range codex.Entries {
		doc["hooks"][e.Event] = append(doc["hooks"][e.Event], doc["hooks"][e.Event][0])
		timeout := 5
		if e.Event == "SessionEnd" || e.Event == "Interrupt" {
			timeout = 3
		}
		config += "\n[hooks.state.\"" + codex.StateKey(path, e.Event, 1, 0) + "\"]\ntrusted_hash = \"" + mustHash(t, e.Event, timeout) + "\"\n"
	}
	data, _ := json.MarshalIndent(doc, "", "  ")
	writeFile(t, path, string(data))
	writeFile(t, codex.ConfigPath(opts.Home), config)
	if err := os.Remove(path + ".codeman-hooks"); err != nil {
		t.Fatal(err)
	}

	st, err := codex.Status(opts)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpToDate() || len(st.Handlers) != 2*len(codex.Entries) || len(st.Copies) != len(codex.Entries) {
		t.Errorf("status: %d handlers, copies %v, up to date %v; want %d handlers and a copy of each", len(st.Handlers), st.Copies, st.UpToDate(), 2*len(codex.Entries))
	}
	for _, h := range st.Handlers {
		if h.Trust != codex.TrustTrusted {
			t.Errorf("%s at %s: %s, want trusted", h.Event, h.Key, h.Trust)
		}
	}

	if _, err := codex.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if n := countHandlers(t, opts.Home); n != 0 {
		t.Errorf("uninstall left %d handlers of codeman's", n)
	}
	if got := readFile(t, codex.ConfigPath(opts.Home)); got != "model = \"gpt-5.5\"\n" {
		t.Errorf("config.toml after uninstall:\n%s", got)
	}
}
