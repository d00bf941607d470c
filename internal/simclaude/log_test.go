package simclaude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestEventLog_RoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	l, err := openEventLog(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []LogEntry{
		{T: t0, Kind: LogSubmit, Text: "a\nb"},
		{T: t0.Add(time.Second), Kind: LogKey, Key: keyEscape, Busy: true, Dialog: "plan"},
		{T: t0.Add(2 * time.Second), Kind: LogTurnEnd, Text: "a\nb", Outcome: OutcomeDone},
	}
	for _, e := range want {
		if err := l.write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if first := strings.SplitN(string(b), "\n", 2)[0]; first != `{"t":"2026-11-29T18:47:00Z","kind":"submit","text":"a\nb","key":"","busy":false,"dialog":""}` {
		t.Errorf("first line = %s", first)
	}
	got, err := ReadLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if !got[i].T.Equal(want[i].T) || got[i].Kind != want[i].Kind || got[i].Text != want[i].Text ||
			got[i].Key != want[i].Key || got[i].Busy != want[i].Busy || got[i].Dialog != want[i].Dialog || got[i].Outcome != want[i].Outcome {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestReadLog_NamesBadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte("{\"kind\":\"key\"}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadLog(path)
	if err == nil || !strings.Contains(err.Error(), path+" line 2") {
		t.Errorf("err = %v, want the file and line 2", err)
	}
}

func TestParseArgs(t *testing.T) {
	var stderr strings.Builder
	o, err := parseArgs([]string{"--work", "500ms", "--seed", "7", "--prompt", "hi", "--hook-cmd", "cat >> f", "--log", "l"}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if o.Work != 500*time.Millisecond || o.Seed != 7 || o.Prompt != "hi" || o.HookCmd != "cat >> f" || o.LogPath != "l" || o.Long != DefaultLong {
		t.Errorf("options = %+v", o)
	}
	for _, bad := range [][]string{{"--work", "soon"}, {"--nope"}, {"extra"}} {
		if _, err := parseArgs(bad, &stderr); err != errUsage {
			t.Errorf("parseArgs(%q) = %v, want errUsage", bad, err)
		}
	}
	if _, err := (Options{Work: -time.Second, Cwd: "/"}).withDefaults(); err == nil || !strings.Contains(err.Error(), "--work") {
		t.Errorf("negative --work: %v", err)
	}
	if _, err := (Options{Look: "gemini", Cwd: "/"}).withDefaults(); err == nil || !strings.Contains(err.Error(), `"gemini"`) {
		t.Errorf("unknown --look: %v", err)
	}
	if _, err := (Options{Look: LookOpenCode, Permission: "deny", Cwd: "/"}).withDefaults(); err == nil || !strings.Contains(err.Error(), "--permission") {
		t.Errorf("unknown --permission: %v", err)
	}
}

func TestOptions_ArgsRoundTrip(t *testing.T) {
	want := Options{
		Work: 500 * time.Millisecond, Long: 2 * time.Second, IdleNotify: 5 * time.Second,
		PermissionNotify: time.Second, AgentTime: 3 * time.Second, LimitReset: time.Minute,
		Look: LookCopilot, AllowWrite: true, Seed: 9, LogPath: "/tmp/a log", HookCmd: "cat >> '/tmp/h'", Prompt: "plan\nthis", Cwd: "/p",
		Cols: 80, Rows: 24,
	}
	opencode := want
	opencode.Look, opencode.AllowWrite, opencode.Permission = LookOpenCode, false, PermissionAsk
	for _, want := range []Options{want, opencode} {
		got, err := parseArgs(want.Args(), &strings.Builder{})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
		}
	}
	if _, err := parseArgs([]string{"--look", LookCopilot, "--allow-tool", "shell"}, &strings.Builder{}); err == nil {
		t.Error("--allow-tool shell parsed, though only write is modelled")
	}
	if _, err := (Options{AllowWrite: true, Cwd: "/"}).withDefaults(); err == nil {
		t.Error("--allow-tool without --look copilot was taken")
	}
	if args := (Options{}).Args(); len(args) != 0 {
		t.Errorf("zero options give %q", args)
	}
}
