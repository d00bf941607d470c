package opencodetest_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/opencodetest"
)

var record = flag.Bool("record", false, "re-record the casts in agents/opencode/testdata with the real OpenCode")

// castDir holds the recordings the replay tests read.
var castDir = filepath.Join("..", "..", "..", "agents", "opencode", "testdata")

// scenario is one recording: the session's options and what is done in
// it. hold leaves the pane alone for a while when recording (an unchanging
// state needs real seconds in a cast, which no condition marks) and does
// nothing otherwise, so that a check of the scenarios stays quick.
type scenario struct {
	name string
	opts opencodetest.Options
	run  func(t *testing.T, s *opencodetest.Session, hold func(time.Duration))
}

// slowChunks stream a reply in four pieces two seconds apart.
var slowChunks = []fakeapi.Chunk{
	{Text: "First piece of a slow answer. "}, {Pause: 2 * time.Second, Text: "Second piece. "},
	{Pause: 2 * time.Second, Text: "Third piece. "}, {Pause: 2 * time.Second, Text: "Last piece."},
}

var scenarios = []scenario{
	{name: "turn-ends", run: func(t *testing.T, s *opencodetest.Session, hold func(time.Duration)) {
		s.API().Handle("stream slowly now", fakeapi.Reply{Delay: 2 * time.Second, Chunks: slowChunks})
		hold(2 * time.Second)
		start := time.Now()
		s.Type("stream slowly now")
		s.WaitFor(opencodetest.Working, "the working bar", 20*time.Second)
		s.WaitFor(opencodetest.Replied("First piece of a slow answer. Second piece. Third piece. Last piece."), "the whole reply", time.Minute)
		turnEnded(t, s, start)
		hold(6 * time.Second)
	}},
	{name: "permission", opts: opencodetest.Options{Config: opencodetest.AskPermissions}, run: func(t *testing.T, s *opencodetest.Session, hold func(time.Duration)) {
		s.API().Handle("run the slow tool", fakeapi.Reply{Text: "Running it.", Tool: bash("sleep 6; echo slow done", "Sleep six seconds"),
			Next: &fakeapi.Reply{Text: "The slow command finished."}})
		hold(2 * time.Second)
		start := time.Now()
		s.Type("run the slow tool")
		s.WaitFor(opencodetest.ShellPermissionOpen, "the permission prompt", 30*time.Second)
		s.WaitForEvent(opencodetest.Hook("permission.asked", time.Time{}), "permission.asked", 10*time.Second)
		hold(6 * time.Second)
		s.SendKeys("Enter")
		s.WaitFor(opencodetest.Working, "the command running", 10*time.Second)
		s.WaitFor(opencodetest.Replied("The slow command finished."), "the reply after the command", time.Minute)
		s.WaitForEvent(opencodetest.Hook("permission.replied", time.Time{}), "permission.replied", time.Second)
		turnEnded(t, s, start)
		hold(5 * time.Second)
	}},
	{name: "api-error", run: func(t *testing.T, s *opencodetest.Session, hold func(time.Duration)) {
		if !*record {
			t.Skip("the retries take 70 s; run with -record")
		}
		s.API().Handle("server error test", fakeapi.Reply{Status: 500})
		hold(2 * time.Second)
		start := time.Now()
		s.Type("server error test")
		s.WaitFor(opencodetest.Retrying, "the first retry", 30*time.Second)
		// Five retries 2, 4, 9, 20 and 33 s apart.
		s.WaitFor(func(screen string) bool { return opencodetest.ErrorLine(screen) == "Internal server error (fake)" },
			"the error row after the retries", 3*time.Minute)
		s.WaitForEvent(opencodetest.Hook("session.error", time.Time{}), "session.error", 10*time.Second)
		turnEnded(t, s, start)
		hold(5 * time.Second)
	}},
	{name: "clear-init", run: func(t *testing.T, s *opencodetest.Session, hold func(time.Duration)) {
		s.API().Handle("say hello", fakeapi.Reply{Text: "Hello there."})
		s.API().Handle("AGENTS.md", fakeapi.Reply{Text: "Writing AGENTS.md.",
			Tool: &fakeapi.ToolCall{Name: "write", Input: map[string]any{"filePath": "AGENTS.md", "content": "# AGENTS.md\n\nA fake project.\n"}},
			Next: &fakeapi.Reply{Text: "AGENTS.md is written."}})
		hold(2 * time.Second)
		start := time.Now()
		s.Type("say hello")
		s.WaitFor(opencodetest.Replied("Hello there."), "the reply", 30*time.Second)
		turnEnded(t, s, start)
		hold(3 * time.Second)
		command(t, s, "/new", func(screen string) bool {
			return opencodetest.PromptReady(screen) && strings.Contains(screen, "Ask anything…")
		})
		hold(3 * time.Second)
		start = time.Now()
		command(t, s, "/init", opencodetest.Working)
		s.WaitFor(opencodetest.Replied("AGENTS.md is written."), "the reply after the write", time.Minute)
		if _, err := os.Stat(filepath.Join(s.Dir(), "AGENTS.md")); err != nil {
			t.Errorf("/init wrote no AGENTS.md: %v", err)
		}
		turnEnded(t, s, start)
		hold(5 * time.Second)
	}},
	{name: "question", run: func(t *testing.T, s *opencodetest.Session, hold func(time.Duration)) {
		s.API().Handle("ask me", fakeapi.Reply{Text: "One question first.", Tool: &fakeapi.ToolCall{Name: "question", Input: map[string]any{
			"questions": []any{map[string]any{"question": "Which colour should the button be?", "header": "Colour", "options": []any{
				map[string]any{"label": "Red", "description": "A red button"}, map[string]any{"label": "Blue", "description": "A blue button"},
			}}},
		}}, Next: &fakeapi.Reply{Text: "Red it is."}})
		hold(2 * time.Second)
		start := time.Now()
		s.Type("ask me")
		saveScreen(t, s, "question", s.WaitFor(opencodetest.QuestionOpen, "the question", 30*time.Second))
		hold(6 * time.Second)
		s.SendKeys("Enter")
		s.WaitFor(opencodetest.Replied("Red it is."), "the reply after the answer", 30*time.Second)
		turnEnded(t, s, start)
		hold(5 * time.Second)
	}},
	{name: "tool-slow", run: func(t *testing.T, s *opencodetest.Session, hold func(time.Duration)) {
		s.API().Handle("run the slow tool", fakeapi.Reply{Text: "Running it.", Tool: bash("sleep 8; echo slow done", "Sleep eight seconds"),
			Next: &fakeapi.Reply{Text: "The slow command finished."}})
		hold(2 * time.Second)
		start := time.Now()
		s.Type("run the slow tool")
		s.WaitFor(func(screen string) bool {
			return strings.Contains(screen, "sleep 8; echo slow done") && opencodetest.Working(screen)
		},
			"the command's spinner row", 30*time.Second)
		s.WaitFor(opencodetest.Replied("The slow command finished."), "the reply after the command", time.Minute)
		turnEnded(t, s, start)
		hold(5 * time.Second)
	}},
}

// saveScreen writes screen, and the pane with its colours, as
// screens/v<version>-<name>.txt and .ansi when recording.
func saveScreen(t *testing.T, s *opencodetest.Session, name, screen string) {
	t.Helper()
	if !*record {
		return
	}
	base := filepath.Join(castDir, "screens", "v"+opencodetest.Version+"-"+name)
	for ext, text := range map[string]string{".txt": screen, ".ansi": s.CaptureANSI()} {
		if err := os.WriteFile(base+ext, []byte(strings.TrimRight(text, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// turnEnded waits for the session.idle that ends the turn started at
// since.
func turnEnded(t *testing.T, s *opencodetest.Session, since time.Time) {
	t.Helper()
	s.WaitForEvent(opencodetest.Hook("session.idle", since), "session.idle", 10*time.Second)
}

// command types a slash command and Enter. With the command's popup open
// the first Enter may only complete it into the composer
// (docs/opencode.md, "Keys"); then a second Enter runs it. done says
// when it ran.
func command(t *testing.T, s *opencodetest.Session, cmd string, done func(string) bool) {
	t.Helper()
	s.Type(cmd)
	ran := func(screen string) bool {
		return done(screen) || opencodetest.Typed(screen) && !strings.Contains(screen, "┃ "+cmd+" ")
	}
	if screen := s.WaitFor(ran, cmd+" to run or stay in the composer", 10*time.Second); !done(screen) {
		t.Logf("%s stayed in the composer after Enter: a second Enter", cmd)
		s.SendKeys("Enter")
	}
	s.WaitFor(done, cmd+" to run", 30*time.Second)
}

// TestRecordings runs each recorded scenario against the real OpenCode.
// With -record it records each as agents/opencode/testdata/<name>-<version>.cast
// (asciicast v2, the recorder's events as "hook:<payload>" markers);
// -run TestRecordings/permission records one.
func TestRecordings(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			opts := sc.opts
			opts.RecordEvents, opts.Record = true, *record
			s := opencodetest.NewSession(t, opts)
			hold := func(d time.Duration) {
				if *record {
					time.Sleep(d) // nothing marks the end of a quiet stretch
				}
			}
			sc.run(t, s, hold)
			if !*record {
				return
			}
			path := filepath.Join(castDir, sc.name+"-"+s.Version()+".cast")
			s.SaveCast(path)
			t.Logf("wrote %s: %d requests, %d events", path, len(s.API().Requests()), len(s.Events()))
		})
	}
}
