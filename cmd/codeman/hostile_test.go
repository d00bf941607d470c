package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/doctor"
	"github.com/codeman-dev/codeman/history"
	"github.com/codeman-dev/codeman/respawn"
)

// hostile is what a malicious repository can make an agent put on screen,
// or a pane's program name be: a clipboard write (OSC 52), a title change,
// a screen clear, a bidi override that shows a command reordered, a
// zero-width space, and a line break that would fake a line of output.
const hostile = "rm -rf ~\x1b]52;c;ZWNobyBoaQ==\a\x1b]0;pwned\a\x1b[2J\u202egpj.sh\u200b\n  NEEDS YOU\tnothing"

// unsafeIn reports what in out could act on a terminal or hide itself.
func unsafeIn(out string) []string {
	var found []string
	for _, bad := range []string{"\x1b", "\a", "\u202e", "\u200b"} {
		if strings.Contains(out, bad) {
			found = append(found, fmt.Sprintf("%q", bad))
		}
	}
	return found
}

func hostilePane(now time.Time) api.PaneStatus {
	p := samplePane(now)
	p.Target, p.Command, p.Profile, p.LastHook = hostile, hostile, hostile, hostile
	p.Status.Line, p.Status.Wait = hostile, hostile
	p.Status.Evidence.Blocker = hostile
	p.Status.Evidence.Screen = []string{hostile}
	p.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedPermission, Reason: hostile, Since: now}
	p.Status.Decisions = append(p.Status.Decisions, respawn.Decision{At: now, Kind: respawn.DecisionVeto, Reason: hostile})
	p.Live = &api.LiveScreen{At: now, Input: hostile, Evidence: []string{hostile}}
	return p
}

// Nothing a pane controls reaches a person's terminal able to act on it,
// and it cannot fake a line or a column of codeman's output.
func TestHumanOutput_PaneTextIsShownNotObeyed(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	p := hostilePane(now)
	problem := p
	problem.Problem = hostile

	var table bytes.Buffer
	if err := printStatusTable(&table, []api.PaneStatus{p, problem}, now); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n"); len(lines) != 3 {
		t.Errorf("status table has %d lines, want a header and two rows:\n%s", len(lines), table.String())
	}
	outputs := map[string]string{"status": table.String()}
	for name, pane := range map[string]api.PaneStatus{"explain": p, "explain of a pane not controlled": problem} {
		var b bytes.Buffer
		if err := printExplain(&b, pane, now); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "NEEDS YOU nothing") || strings.Contains(line, "\t") {
				t.Errorf("%s: the pane's text faked a line %q:\n%s", name, line, b.String())
			}
		}
		outputs[name] = b.String()
	}
	var attached bytes.Buffer
	if err := printAttached(&attached, p); err != nil {
		t.Fatal(err)
	}
	outputs["attach"] = attached.String()
	var report bytes.Buffer
	tally := history.Tally{Count: 1, Top: []history.ReasonCount{{Reason: hostile, Count: 1}}}
	if err := printReport(&report, []history.Digest{{Pane: hostile, From: now, To: now, Holds: tally, Warnings: tally}}); err != nil {
		t.Fatal(err)
	}
	outputs["report"] = report.String()
	var diagnosis bytes.Buffer
	if err := printDoctor(&diagnosis, doctor.Report{Checks: []doctor.Check{{Name: "pane", Verdict: doctor.VerdictWarn, Message: hostile, Fix: hostile}}}); err != nil {
		t.Fatal(err)
	}
	outputs["doctor"] = diagnosis.String()

	for name, out := range outputs {
		if bad := unsafeIn(out); len(bad) > 0 {
			t.Errorf("%s prints %v raw:\n%q", name, bad, out)
		}
		if !strings.Contains(out, `rm -rf ~\x1b]`) {
			t.Errorf("%s hides the escape instead of showing it:\n%q", name, out)
		}
	}
}
