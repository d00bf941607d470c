package codexhooks_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
)

// Copies of codeman's handlers, trusted at their places as an install
// that kept no record would leave them, are codeman's: status says so,
// and uninstall removes them and their trust.
func TestInstall_TrustedCopies(t *testing.T) {
	opts := testOptions(t)
	writeFile(t, codexhooks.ConfigPath(opts.Home), "model = \"gpt-5.5\"\n")
	if _, err := codexhooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	path := codexhooks.HooksPath(opts.Home)
	var doc map[string]map[string][]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	config := readFile(t, codexhooks.ConfigPath(opts.Home))
	for _, e := range codexhooks.Entries {
		doc["hooks"][e.Event] = append(doc["hooks"][e.Event], doc["hooks"][e.Event][0])
		timeout := 5
		if e.Event == "SessionEnd" || e.Event == "Interrupt" {
			timeout = 3
		}
		config += "\n[hooks.state.\"" + codexhooks.StateKey(path, e.Event, 1, 0) + "\"]\ntrusted_hash = \"" + mustHash(t, e.Event, timeout) + "\"\n"
	}
	data, _ := json.MarshalIndent(doc, "", "  ")
	writeFile(t, path, string(data))
	writeFile(t, codexhooks.ConfigPath(opts.Home), config)
	if err := os.Remove(path + ".codeman-hooks"); err != nil {
		t.Fatal(err)
	}

	st, err := codexhooks.Status(opts)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpToDate() || len(st.Handlers) != 2*len(codexhooks.Entries) || len(st.Copies) != len(codexhooks.Entries) {
		t.Errorf("status: %d handlers, copies %v, up to date %v; want %d handlers and a copy of each", len(st.Handlers), st.Copies, st.UpToDate(), 2*len(codexhooks.Entries))
	}
	for _, h := range st.Handlers {
		if h.Trust != codexhooks.TrustTrusted {
			t.Errorf("%s at %s: %s, want trusted", h.Event, h.Key, h.Trust)
		}
	}

	if _, err := codexhooks.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if n := countHandlers(t, opts.Home); n != 0 {
		t.Errorf("uninstall left %d handlers of codeman's", n)
	}
	if got := readFile(t, codexhooks.ConfigPath(opts.Home)); got != "model = \"gpt-5.5\"\n" {
		t.Errorf("config.toml after uninstall:\n%s", got)
	}
}
