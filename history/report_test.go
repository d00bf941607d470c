package history

import (
	"reflect"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

func at(m time.Duration) time.Time { return t0.Add(m) }

func sendRec(t time.Time, step respawn.Step) Record {
	return Record{At: t, Pane: pane, Kind: KindDecision, Decision: &respawn.Decision{At: t, Kind: respawn.DecisionSend, Step: step, Reason: "x"}}
}

func event(t time.Time, kind, reason string) Record {
	return Record{At: t, Pane: pane, Kind: kind, Reason: reason}
}

// day is a pane's afternoon, with what each stretch counts as.
func day() []Record {
	m, s := time.Minute, time.Second
	const limit = "waiting out usage limit until 13:30:00: You've hit your 5-hour limit · resets 1:30pm (UTC)"
	return []Record{
		event(at(0), KindAttach, "profile default"),
		stateRec(at(0), "stopped", "watching", "started"),   // working 0-10m
		decRec(at(10*m), respawn.DecisionHook, "hook stop"), // idle 10m-10m3s
		stateRec(at(10*m), "watching", "confirming_idle", "Stop hook"),
		stateRec(at(10*m+3*s), "confirming_idle", "sending_update", "idle confirmed: Stop hook and 3s of silence; cycle 1 starts"), // working (cycle) to 20m
		sendRec(at(10*m+10*s), respawn.StepUpdate),
		stateRec(at(10*m+10*s), "sending_update", "waiting_update", "update typed"),
		stateRec(at(20*m), "waiting_update", "watching", "cycle 1 complete: update finished: 20s of silence; /clear and /init skipped"), // idle 20-30m
		decRec(at(20*m+5*s), respawn.DecisionVeto, "AI idle check on cooldown for 30s"),
		decRec(at(20*m+10*s), respawn.DecisionVeto, "AI idle check on cooldown for 45s"),
		decRec(at(30*m), respawn.DecisionHook, "hook prompt_submitted"),                   // working 30-40m
		decRec(at(40*m), respawn.DecisionHook, "hook question_pending (AskUserQuestion)"), // person 40-50m
		decRec(at(45*m), respawn.DecisionVeto, "a person must answer: question"),
		decRec(at(50*m), respawn.DecisionHook, "hook question_answered"),                   // working 50-55m
		stateRec(at(55*m), "watching", "confirming_idle", "completion line in the output"), // idle 55-60m
		decRec(at(60*m), respawn.DecisionWait, limit+"; no cycle"),                         // limits 60-90m
		decRec(at(60*m), respawn.DecisionVeto, limit),
		stateRec(at(60*m), "confirming_idle", "watching", limit),
		decRec(at(90*m), respawn.DecisionWait, "usage limit over"), // idle, then working from the resume: 90-100m
		sendRec(at(90*m), respawn.StepResume),
		decRec(at(100*m), respawn.DecisionWarn, "no progress for 5m0s in watching"), // idle 100-110m
		event(at(110*m), KindDetach, "daemon stopping"),                             // not controlled 110-120m
		event(at(120*m), KindAttach, "profile default"),                             // working 120-130m
		stateRec(at(120*m), "stopped", "watching", "started"),
		event(at(130*m), KindNeedsYou, "question: Which database should the project use?"), // person 130-135m
		event(at(135*m), KindResolved, "question answered"),                                // working 135-150m
		event(at(136*m), "frobnicated", "a kind from a newer codeman"),
	}
}

func TestReport_Day(t *testing.T) {
	m, s := time.Minute, time.Second
	// Another pane, detached before the span: left out.
	gone := Record{At: at(-2 * time.Hour), Pane: "screen:1.gone:0", Kind: KindDetach, Reason: "pane closed"}
	got := Report(append(day(), gone), at(-time.Hour), at(150*m))
	want := Digest{
		Pane: pane, From: at(0), To: at(150 * m),
		Time:   Times{Working: 69*m + 57*s, Idle: 25*m + 3*s, Limits: 30 * m, Person: 15 * m, NotControlled: 10 * m},
		Cycles: Cycles{Started: 1, Completed: 1},
		Sends:  map[respawn.Step]int{respawn.StepUpdate: 1, respawn.StepResume: 1},
		Holds: Tally{Count: 6, Top: []ReasonCount{
			{"AI idle check on cooldown for 45s", 2},
			{"a person must answer: question", 1},
			{"usage limit over", 1},
			{"waiting out usage limit until 13:30:00: You've hit your 5-hour limit · resets 1:30pm (UTC)", 1},
			{"waiting out usage limit until 13:30:00: You've hit your 5-hour limit · resets 1:30pm (UTC); no cycle", 1},
		}},
		Warnings: Tally{Count: 1, Top: []ReasonCount{{"no progress for 5m0s in watching", 1}}},
		NeedsYou: map[string]int{"question": 1},
		Other:    1,
	}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("report:\n%+v\nwant\n%+v", got, want)
	}
	if total := got[0].Time.Total(); total != got[0].To.Sub(got[0].From) {
		t.Errorf("buckets add up to %s, the span is %s", total, got[0].To.Sub(got[0].From))
	}
}

// A span that starts inside the day takes where the pane stood from the
// records before it and counts only what happened inside.
func TestReport_Window(t *testing.T) {
	m := time.Minute
	got := Report(day(), at(45*m), at(95*m))
	if len(got) != 1 {
		t.Fatalf("report: %+v", got)
	}
	d := got[0]
	wantTime := Times{Person: 5 * m, Working: 10 * m, Idle: 5 * m, Limits: 30 * m}
	if d.From != at(45*m) || d.Time != wantTime {
		t.Errorf("from %s, times %+v; want %s, %+v", d.From, d.Time, at(45*m), wantTime)
	}
	if d.Cycles != (Cycles{}) || !reflect.DeepEqual(d.Sends, map[respawn.Step]int{respawn.StepResume: 1}) || d.Holds.Count != 4 || d.Warnings.Count != 0 {
		t.Errorf("counts: cycles %+v, sends %v, %d holds, %d warnings; want none, resume 1, 4, 0", d.Cycles, d.Sends, d.Holds.Count, d.Warnings.Count)
	}
	if got := Report(day(), at(-2*time.Hour), at(-time.Hour)); len(got) != 0 {
		t.Errorf("a span before the first record: %+v", got)
	}
}

func TestCompletesCycle(t *testing.T) {
	for _, tc := range []struct {
		from, to, reason string
		want             bool
	}{
		{"waiting_kickstart", "watching", "cycle 3 complete: kickstart finished: 10s of silence", true},
		{"waiting_update", "watching", "cycle 1 complete: update finished: 20s of silence; /clear and /init skipped", true},
		{"monitoring_init", "watching", "cycle 2 complete: /init started work, kickstart skipped", true},
		{"waiting_kickstart", "watching", "stuck-state recovery", true},
		{"sending_clear", "watching", "working output before clear was typed; cycle 1 abandoned", false},
		{"confirming_idle", "watching", "working output during confirmation", false},
		{"waiting_kickstart", "stopped", "detached", false},
	} {
		d := respawn.Decision{Kind: respawn.DecisionState, From: tc.from, To: tc.to, Reason: tc.reason}
		if got := CompletesCycle(d); got != tc.want {
			t.Errorf("CompletesCycle(%s -> %s: %s) = %v", tc.from, tc.to, tc.reason, got)
		}
	}
}

// The controller's own need decisions put time in needing a person and
// count as calls for one, unless the history holds needs-you records,
// which then are the count (the same need is not counted twice).
func TestReport_NeedDecisions(t *testing.T) {
	m := time.Minute
	recs := []Record{
		stateRec(at(0), "stopped", "watching", "started"),
		decRec(at(5*m), respawn.DecisionWait, "needs a person: permission: Bash rm -rf build"),
		decRec(at(6*m), respawn.DecisionVeto, "a person must answer: permission prompt"),
		decRec(at(10*m), respawn.DecisionWait, "no longer needs a person (permission: Bash rm -rf build)"),
	}
	got := Report(recs, at(0), at(15*m))
	if len(got) != 1 {
		t.Fatalf("report: %+v", got)
	}
	d := got[0]
	if d.Time != (Times{Working: 10 * m, Person: 5 * m}) || !reflect.DeepEqual(d.NeedsYou, map[string]int{"permission": 1}) || d.Holds.Count != 1 {
		t.Errorf("times %+v, needs %v, %d holds; want 10m working, 5m person, permission 1, 1 hold (the veto)", d.Time, d.NeedsYou, d.Holds.Count)
	}
	recs = append(recs, event(at(5*m), KindNeedsYou, "permission: Bash rm -rf build"))
	if d := Report(recs, at(0), at(15*m))[0]; !reflect.DeepEqual(d.NeedsYou, map[string]int{"permission": 1}) {
		t.Errorf("with a needs-you record too: needs %v, want permission 1", d.NeedsYou)
	}
}
