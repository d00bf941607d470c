package hooks

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Fuzz target of the settings editor, which takes any JSON a user keeps in
// settings.json (the hook payload decoder's is in package spool). Seeds are
// the settings fixtures of testdata; run it with
//
//	go test -run '^$' -fuzz '^FuzzSettingsRoundTrip$' -fuzztime 20s ./hooks/

// FuzzSettingsRoundTrip: for any valid JSON object (or blank) settings,
// install adds every entry and is then a no-op, and uninstall gives the
// input back byte for byte, or in Claude Code's layout when the copy of
// the original is gone. Inputs install refuses (hooks not an object, an
// event not a list) must be refused, not mangled.
func FuzzSettingsRoundTrip(f *testing.F) {
	// The shapes agents' entries take: events with and without a matcher,
	// one event in several groups, a timeout of its own.
	fuzzEntries := []Entry{
		{Event: "Stop"},
		{Event: "Notification", Matcher: "idle_prompt"},
		{Event: "Notification", Matcher: "permission_prompt"},
		{Event: "PreToolUse", Matcher: "*"},
		{Event: "SessionEnd", Timeout: 3},
	}
	for _, pattern := range []string{"settings/*.json", "settings/*.golden", "settings-invalid/*.json"} {
		files, err := filepath.Glob(filepath.Join("testdata", pattern))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{"", " \n", "\t", "{}", `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, `{"hooks":null}`,
		`{"hooks":5,"hooks":{"St\u006fp":[]}}`, `{"hooks":{"Stop":{}}}`,
		`{"hooks":{"Stop":[{"hooks":[]}],"Stop":[]},"hooks":{"Stop":[{"matcher":7,"hooks":[{"command":"x"}]}]}}`,
		`{"a":1.50,"\u0068ooks":{"Notification":[{"matcher":"*","hooks":[{"type":"command","command":"/opt/codeman/bin/codeman hook","timeout":5}]}]}}`} {
		f.Add([]byte(s))
	}
	const command = "/opt/codeman/bin/codeman-hook"
	ours := map[string]bool{command: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkSyntax("settings.json", data) != nil {
			return
		}
		if _, err := parseTop(data); err != nil {
			return
		}
		rec := newRecord(&settingsFile{exists: true, data: data})
		install := newEdit(fuzzEntries, command, rec, ours)
		out, changed, err := install.apply(data)
		if err != nil || len(install.found) > 0 {
			return // refused (the caller writes nothing), or codeman's hooks are there already
		}
		if !changed || len(install.added) != len(fuzzEntries) || install.after == nil {
			t.Fatalf("install changed %v, added %v", changed, install.added)
		}
		if err := checkSyntax("out", out); err != nil {
			t.Fatalf("install wrote invalid JSON: %v\n%s", err, out)
		}

		again := newEdit(fuzzEntries, command, install.after, ours)
		out2, changed, err := again.apply(out)
		if err != nil || changed || !bytes.Equal(out2, out) || len(again.found) != len(fuzzEntries) {
			t.Fatalf("second install: changed %v, found %d, err %v", changed, len(again.found), err)
		}

		uninstall := newEdit(nil, command, install.after, ours)
		restored, changed, err := uninstall.apply(out)
		if err != nil || !changed || uninstall.after != nil || len(uninstall.removed) != len(fuzzEntries) {
			t.Fatalf("uninstall: changed %v, removed %v, err %v", changed, uninstall.removed, err)
		}
		if got, remove := finish(restored, nil, rec, data); remove || !bytes.Equal(got, data) {
			t.Fatalf("install + uninstall gave (remove %v)\n%s\nwant\n%s", remove, got, data)
		}
		want := data
		if !isBlank(data) {
			if want, err = indent(data); err != nil {
				t.Fatal(err)
			}
		}
		if got, remove := finish(restored, nil, rec, nil); remove || !bytes.Equal(got, want) {
			t.Fatalf("install + uninstall without the original gave (remove %v)\n%s\nwant\n%s", remove, got, want)
		}
	})
}
