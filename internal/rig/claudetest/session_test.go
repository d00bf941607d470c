package claudetest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func TestSession_Turn(t *testing.T) {
	s := claudetest.NewSession(t, claudetest.Options{
		RecordHooks: true,
		Files:       map[string]string{"CLAUDE.md": "# Notes\n\nUse the fake API.\n"},
		// Nonessential traffic on: the start-up HEAD /api/hello and the
		// session title side request reach the fake too.
		Env: []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="},
	})
	s.API().Handle("hello there", fakeapi.Reply{Text: "Hello from the fake."})

	s.Type("hello there")
	req, err := s.API().WaitForRequest(fakeapi.UserText("hello there"), 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !req.Stream || !req.HasTool("Bash") || req.Model == "" {
		t.Errorf("request: stream=%t tools=%v model=%q, want a streamed main-loop request", req.Stream, req.Tools, req.Model)
	}
	if !strings.Contains(string(req.Body), "Use the fake API.") {
		t.Error("the request lacks the project's CLAUDE.md")
	}
	screen := s.WaitFor(claudetest.Completions(1), "the completion line", 15*time.Second)
	if !strings.Contains(screen, "● Hello from the fake.") {
		t.Errorf("reply not on screen:\n%s", screen)
	}
	s.WaitFor(claudetest.PromptReady, "the idle prompt", 5*time.Second)

	if _, err := s.API().WaitForRequest(func(r fakeapi.Request) bool { return r.Method == "HEAD" && r.Path == "/api/hello" }, time.Second); err != nil {
		t.Error(err)
	}
	if _, err := s.API().WaitForRequest(func(r fakeapi.Request) bool { return r.Title }, 10*time.Second); err != nil {
		t.Error(err)
	}
	waitPaneTitle(t, s, "✳ Fake session")

	stop := s.WaitForEvent(claudetest.Hook("Stop", time.Time{}), "Stop", 10*time.Second)
	if got := stop.Field("last_assistant_message"); got != "Hello from the fake." {
		t.Errorf("Stop last_assistant_message = %q", got)
	}
	if got := s.Events()[0].Name; got != "SessionStart" {
		t.Errorf("first hook %s, want SessionStart", got)
	}
}

func TestSession_Record(t *testing.T) {
	s := claudetest.NewSession(t, claudetest.Options{Record: true, RecordHooks: true})
	s.Type("hello there")
	s.WaitFor(claudetest.Completions(1), "the completion line", 15*time.Second)
	s.WaitForEvent(claudetest.Hook("Stop", time.Time{}), "Stop", 10*time.Second)
	path := filepath.Join(t.TempDir(), "turn.cast")
	s.SaveCast(path)

	head, events := readCast(t, path)
	if head.Version != 2 || head.Width != 200 || head.Height != 50 || head.Env["TERM"] == "" {
		t.Errorf("header %+v", head)
	}
	var before strings.Builder // output before the prompt was submitted
	var hooks []string
	for _, e := range events {
		if label, ok := strings.CutPrefix(e.Data, "hook:"); ok && e.Kind == "m" {
			var p struct {
				Event string `json:"hook_event_name"`
			}
			if err := json.Unmarshal([]byte(label), &p); err != nil {
				t.Fatalf("marker %q: %v", e.Data, err)
			}
			hooks = append(hooks, p.Event)
		}
		if e.Kind == "o" && !slices.Contains(hooks, "UserPromptSubmit") {
			before.WriteString(e.Data)
		}
	}
	// The recording starts before the first frame: it holds the switch to
	// the alternate screen and the whole header.
	for _, want := range []string{"\x1b[?1049h", "Claude Code", "v" + s.Version(), "for shortcuts"} {
		if !strings.Contains(before.String(), want) {
			t.Errorf("output before the prompt lacks %q", want)
		}
	}
	for _, want := range []string{"SessionStart", "UserPromptSubmit", "Stop"} {
		if !slices.Contains(hooks, want) {
			t.Errorf("hook markers %v lack %s", hooks, want)
		}
	}
	if last := events[len(events)-1]; last.Kind != "m" || last.Data != clitest.EndMarker {
		t.Errorf("last event %+v, want the end marker", last)
	}
}

func TestSession_OAuthUsageLimit(t *testing.T) {
	s := claudetest.NewSession(t, claudetest.Options{OAuth: true})
	s.API().Handle("usage limit please", fakeapi.Reply{Status: 429, UsageLimit: &fakeapi.UsageLimit{Claim: "five_hour"}})

	s.Type("first line\nusage limit please") // a bracketed paste
	s.WaitFor(clitest.Contains("You've hit your 5-hour limit"), "the usage limit line", 15*time.Second)
	req, err := s.API().WaitForRequest(fakeapi.UserText("usage limit please"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if req.LastUserText != "first line\nusage limit please" {
		t.Errorf("pasted prompt arrived as %q, want one text with its newline", req.LastUserText)
	}
	if auth := req.Header.Get("Authorization"); auth != "Bearer "+claudetest.FakeOAuthToken {
		t.Errorf("Authorization %q, want the fake OAuth token", auth)
	}
}

func TestSession_APIErrorSurvivesRetry(t *testing.T) {
	s := claudetest.NewSession(t, claudetest.Options{RecordHooks: true})
	s.API().Enqueue(fakeapi.Reply{Status: 529})

	s.Type("deploy it")
	s.WaitFor(clitest.Contains("API Error: 529 Overloaded (fake)"), "the API error line", 20*time.Second)
	failure := s.WaitForEvent(claudetest.Hook("StopFailure", time.Time{}), "StopFailure", 10*time.Second)
	if got := failure.Field("error"); got != "server_error" {
		t.Errorf("StopFailure error %q, want server_error", got)
	}
	// CLAUDE_CODE_MAX_RETRIES=1: one retry, which must get the error too.
	var retries int
	for _, r := range s.API().Requests() {
		if r.Retry && r.Status == 529 {
			retries++
		}
	}
	if retries != 1 {
		t.Errorf("%d retries answered 529, want 1", retries)
	}
}

// waitPaneTitle waits for the pane title Claude sets from the session
// title the fake API made up.
func waitPaneTitle(t *testing.T, s *claudetest.Session, want string) {
	t.Helper()
	var got string
	// tmux has no event for a title change we could wait on here.
	err := wait.Until(fmt.Sprintf("pane title %q", want), 10*time.Second, func() bool {
		got = strings.TrimSpace(s.Tmux("display-message", "-p", "-t", s.PaneID(), "#{pane_title}"))
		return got == want
	})
	if err != nil {
		t.Fatalf("%v; the title is %q", err, got)
	}
}

// castEvent is one parsed asciicast event.
type castEvent struct {
	Time       float64
	Kind, Data string
}

// readCast parses an asciicast v2 file, checking that it is valid UTF-8 and
// that its times never go back.
func readCast(t *testing.T, path string) (head struct {
	Version, Width, Height int
	Env                    map[string]string
}, events []castEvent) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) {
		t.Fatalf("%s is not valid UTF-8", path)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatalf("%s:1: %v", path, err)
	}
	for i, line := range lines[1:] {
		var raw [3]any
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatalf("%s:%d: %v", path, i+2, err)
		}
		e := castEvent{Time: raw[0].(float64), Kind: raw[1].(string), Data: raw[2].(string)}
		if len(events) > 0 && e.Time < events[len(events)-1].Time {
			t.Fatalf("%s:%d: time goes back", path, i+2)
		}
		events = append(events, e)
	}
	return head, events
}
