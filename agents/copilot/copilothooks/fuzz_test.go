package copilothooks

import (
	"testing"
)

// FuzzEdit: any file either is refused or takes an install whose result
// reads back as installed, with a second install changing nothing and
// every hook of the user's kept; an uninstall of it then leaves nothing
// of codeman's and the same hooks of the user's.
//
//	go test -run '^$' -fuzz '^FuzzEdit$' -fuzztime 20s ./agents/copilot/copilothooks/
func FuzzEdit(f *testing.F) {
	c := newCommands("/opt/codeman/codeman", "/opt/codeman/codeman-hook")
	for _, seed := range []string{
		"",
		`{"version": 1, "hooks": {}}`,
		`{"version": 1, "note": "x", "hooks": {"agentStop": [{"type": "command", "bash": "mine"}, {"type": "command", "bash": "/opt/codeman/codeman-hook agentStop", "timeoutSec": 5}]}}`,
		`{"hooks": {"preCompact": 7, "sessionEnd": [{"type": "command", "bash": "'/old dir/codeman' hook sessionEnd"}]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		hf, err := parseHooksFile("codeman.json", data)
		if err != nil {
			return
		}
		p, err := hf.edit(Events, c)
		if err != nil {
			return
		}
		out := data
		if p.changed {
			if p.remove {
				t.Fatal("an install removes the file")
			}
			out = p.out
		}
		again, err := parseHooksFile("codeman.json", out)
		if err != nil {
			t.Fatalf("the installed file does not read back: %v\n%s", err, out)
		}
		p2, err := again.edit(Events, c)
		if err != nil || p2.changed || p2.userHooks != p.userHooks || len(p2.found) != len(Events) {
			t.Fatalf("second install: changed %v, user hooks %d (was %d), found %d, %v\n%s", p2.changed, p2.userHooks, p.userHooks, len(p2.found), err, out)
		}
		u, err := again.edit(nil, c)
		if err != nil || !u.changed || u.userHooks != p.userHooks {
			t.Fatalf("uninstall: %+v, %v", u, err)
		}
		if u.remove {
			return
		}
		left, err := parseHooksFile("codeman.json", u.out)
		if err != nil {
			t.Fatalf("the uninstalled file does not read back: %v\n%s", err, u.out)
		}
		if p3, err := left.edit(nil, c); err != nil || p3.changed || len(p3.found) > 0 || p3.userHooks != p.userHooks {
			t.Fatalf("after uninstall: %+v, %v\n%s", p3, err, u.out)
		}
	})
}
