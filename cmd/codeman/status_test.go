package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

func samplePane(now time.Time) api.PaneStatus {
	return api.PaneStatus{
		Pane: "tmux:/tmp/tmux-0/default:%3", Target: "work:1.0 (%3)", Command: "claude", Agent: "claude", Mode: "control",
		HooksActive: true, LastHook: "stop", LastHookAt: now.Add(-4 * time.Second), Checker: "available",
		Status: respawn.Status{
			State: "waiting_update", Line: "cycle 2: waiting_update", Cycles: 2, Since: now.Add(-3 * time.Second),
			Evidence:  respawn.Evidence{Silence: 2 * time.Second, Tokens: -1, PromptBox: true, Screen: []string{"completion_line: ✻ Worked for 41s"}},
			Timers:    []respawn.TimerStatus{{Name: "step-confirm", Remaining: 8 * time.Second}},
			IdleCheck: respawn.GateStatus{Enabled: true, Until: now.Add(90 * time.Second), Why: "on cooldown"},
			Decisions: []respawn.Decision{{At: now.Add(-3 * time.Second), Kind: respawn.DecisionState, From: "sending_update", To: "waiting_update", Reason: "update typed"}},
		},
	}
}

func TestPrintStatusTable(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	if err := printStatusTable(&b, []api.PaneStatus{samplePane(now)}, now); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "PANE") {
		t.Fatalf("table:\n%s", b.String())
	}
	for _, want := range []string{"work:1.0 (%3)", "claude", "cycle 2: waiting_update", "stop 4s", "state sending_update -> waiting_update: update typed", "3s"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("row %q lacks %q", lines[1], want)
		}
	}
}

// The table names the agent where the program does not: codex run through
// its node wrapper, or a screen window whose program is unknown.
func TestPrintStatusTable_Agent(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ command, agent, want string }{
		{"claude", "claude", "claude "},
		{"node", "codex", "node [codex]"},
		{"", "codex", "[codex]"},
		{"", "", "-"},
	} {
		p := samplePane(now)
		p.Command, p.Agent = tc.command, tc.agent
		var b bytes.Buffer
		if err := printStatusTable(&b, []api.PaneStatus{p}, now); err != nil {
			t.Fatal(err)
		}
		if row := strings.Split(b.String(), "\n")[1]; !strings.Contains(row, tc.want) {
			t.Errorf("command %q, agent %q: row %q lacks %q", tc.command, tc.agent, row, tc.want)
		}
	}
}

func TestPrintExplain(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	if err := printExplain(&b, samplePane(now), now); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"state     waiting_update for 3s, 2 cycle(s)", "completion_line: ✻ Worked for 41s", "hooks            active; last stop 4s ago", "idle on cooldown for 1m30s", "step-confirm", "update typed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("explain lacks %q:\n%s", want, b.String())
		}
	}
}

// explain shows the screen as it is now beside the one the controller
// last read, and says when it could not read it.
func TestPrintExplain_LiveScreen(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	p := samplePane(now)
	p.Live = &api.LiveScreen{
		At: now.Add(-200 * time.Millisecond), PromptBox: true, Permission: true,
		Evidence: []string{"permission_prompt: Do you want to proceed?"},
	}
	var b bytes.Buffer
	if err := printExplain(&b, p, now); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"screen now       read 200ms ago: working=false prompt box=true plan menu=false; permission prompt",
		"permission_prompt: Do you want to proceed?",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("explain lacks %q:\n%s", want, b.String())
		}
	}

	p.Live = &api.LiveScreen{At: now, Error: "no hardcopy of screen:1.w:0 yet"}
	b.Reset()
	if err := printExplain(&b, p, now); err != nil {
		t.Fatal(err)
	}
	if want := "screen now       unreadable: no hardcopy of screen:1.w:0 yet"; !strings.Contains(b.String(), want) {
		t.Errorf("explain lacks %q:\n%s", want, b.String())
	}
}

// Panes of two tmux servers are told apart by the server's name; a pane
// that could not be adopted shows why.
func TestPrintStatusTable_ServersAndProblems(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	a, b := samplePane(now), samplePane(now)
	a.Pane, a.Target = "tmux:/tmp/tmux-0/s1:%0", "s1:0.0 (%0)"
	b.Pane, b.Target = "tmux:/tmp/tmux-0/s2:%0", "s1:0.0 (%0)"
	c := api.PaneStatus{Pane: "screen:12.work:1", Target: "screen:12.work:1", Problem: "bad config: line 3", ProblemAt: now.Add(-time.Minute)}
	var out bytes.Buffer
	if err := printStatusTable(&out, []api.PaneStatus{a, b, c}, now); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, want := range []string{"[s1] s1:0.0 (%0)", "[s2] s1:0.0 (%0)", "not controlled", "bad config: line 3", "1m00s"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	// Two servers of one name in different directories show their paths.
	b.Pane = "tmux:/run/other/s1:%0"
	out.Reset()
	printStatusTable(&out, []api.PaneStatus{a, b}, now)
	if !strings.Contains(out.String(), "[/run/other/s1]") || !strings.Contains(out.String(), "[/tmp/tmux-0/s1]") {
		t.Errorf("same-named servers not told apart:\n%s", out.String())
	}
	// One server: no label.
	out.Reset()
	printStatusTable(&out, []api.PaneStatus{a}, now)
	if strings.Contains(out.String(), "[s1]") {
		t.Errorf("a single server is labelled:\n%s", out.String())
	}
}

func TestPrintExplain_NotControlled(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	p := api.PaneStatus{Pane: "tmux:/tmp/tmux-0/default:%3", Target: "tmux:/tmp/tmux-0/default:%3", Profile: "overnight",
		Problem: "config.toml:3: completion_confirm: bad duration", ProblemAt: now.Add(-2 * time.Minute)}
	if err := printExplain(&b, p, now); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not controlled since 2m00s ago", "completion_confirm: bad duration", "profile overnight", "codeman detach"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("explain lacks %q:\n%s", want, b.String())
		}
	}
}

// A pane that needs a person says so, and what for, in status and explain.
func TestPrintStatus_NeedsYou(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	p := samplePane(now)
	p.Status.Line = "needs you: permission"
	p.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedPermission, Reason: "Bash: rm -rf ./build", Since: now.Add(-90 * time.Second)}
	var b bytes.Buffer
	if err := printStatusTable(&b, []api.PaneStatus{p}, now); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"needs you: permission", "Bash: rm -rf ./build", "1m30s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := printExplain(&b, p, now); err != nil {
		t.Fatal(err)
	}
	if want := "NEEDS YOU permission for 1m30s: Bash: rm -rf ./build"; !strings.Contains(b.String(), want) {
		t.Errorf("explain lacks %q:\n%s", want, b.String())
	}
}
