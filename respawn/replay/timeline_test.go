package replay_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

func TestTimeline(t *testing.T) {
	text := "/clear"
	tl := replay.Timeline{
		{T: 1, Event: "state", From: "watching", To: "confirming_idle", Reason: "completion line in the output"},
		{T: 2, Event: "send", Step: respawn.StepClear, Text: &text},
		{T: 3, Event: "wait", Reason: "waiting out API error"},
	}
	if sends := tl.Sends(); len(sends) != 1 || *sends[0].Text != "/clear" {
		t.Errorf("Sends = %+v, want the /clear", sends)
	}
	if e, ok := tl.Find("API error"); !ok || e.T != 3 {
		t.Errorf("Find = %+v, %v; want the wait at 3s", e, ok)
	}
	if _, ok := tl.Find("usage limit"); ok {
		t.Error("Find found a reason that is not there")
	}
	if got := tl.String(); strings.Count(got, "\n") != 3 || !strings.Contains(got, `send   "/clear" (clear)`) {
		t.Errorf("String =\n%s", got)
	}
}

func TestReadFile(t *testing.T) {
	if _, err := replay.ReadFile(filepath.Join(t.TempDir(), "missing.cast")); err == nil {
		t.Error("a missing file read without an error")
	}
}
