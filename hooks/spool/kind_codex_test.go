package spool_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/hooks/spool"
)

// codexKinds is the signal each real Codex payload of
// hooks/testdata/codex makes; the notify-* files are notify arguments,
// not hook payloads, and carry no event.
var codexKinds = map[string]spool.Kind{
	"interrupt.json":                        spool.KindInterrupted,
	"permission-request.json":               spool.KindPermissionPrompt,
	"post-compact.json":                     spool.KindNone,
	"post-model-request-failed.json":        spool.KindTurnFailed,
	"post-model-request-usage-limit.json":   spool.KindTurnFailed,
	"post-model-request.json":               spool.KindNone,
	"post-tool-use-apply-patch.json":        spool.KindToolFinished,
	"post-tool-use.json":                    spool.KindToolFinished,
	"pre-compact.json":                      spool.KindNone,
	"pre-model-request.json":                spool.KindToolStarted,
	"pre-tool-use-apply-patch.json":         spool.KindToolStarted,
	"pre-tool-use-escalated.json":           spool.KindToolStarted,
	"pre-tool-use.json":                     spool.KindToolStarted,
	"session-end.json":                      spool.KindSessionEnded,
	"session-start-clear.json":              spool.KindClearFinished,
	"session-start-new.json":                spool.KindNone,
	"session-start.json":                    spool.KindNone,
	"stop.json":                             spool.KindStop,
	"user-prompt-submit.json":               spool.KindPromptSubmitted,
	"notify-agent-turn-complete.json":       spool.KindNone,
	"notify-agent-turn-complete-title.json": spool.KindNone,
}

// TestKind_CodexPayloads parses every recorded Codex payload and checks
// the signal it makes; a new fixture without an expectation fails.
func TestKind_CodexPayloads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "codex", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(codexKinds) {
		t.Errorf("%d Codex payloads in testdata, %d expectations", len(files), len(codexKinds))
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			want, ok := codexKinds[name]
			if !ok {
				t.Fatalf("no expected kind for %s", name)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m, err := spool.ParsePayload(data)
			if strings.HasPrefix(name, "notify-") {
				if err == nil {
					t.Fatalf("notify argument parsed as hook event %q", m.Event)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Kind(); got != want {
				t.Errorf("kind = %s, want %s", got, want)
			}
			// The marker's copy of the payload, as a recording keeps it,
			// makes the same signal.
			back, err := spool.ParsePayload(m.Payload())
			if err != nil {
				t.Fatal(err)
			}
			if got := back.Kind(); got != want {
				t.Errorf("kind of the marker's payload = %s, want %s", got, want)
			}
		})
	}
}

// A failed model request keeps the screen's text as the marker's error.
func TestKind_CodexFailedRequestError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "post-model-request-usage-limit.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spool.ParsePayload(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != "failed" || !strings.HasPrefix(m.Error, "You’ve hit your usage limit.") {
		t.Errorf("status %q, error %q", m.Status, m.Error)
	}
}

func TestKind_CodexModelRequestStatuses(t *testing.T) {
	for _, tc := range []struct {
		status string
		want   spool.Kind
	}{
		{"failed", spool.KindTurnFailed},
		{"completed", spool.KindNone},
		{"cancelled", spool.KindNone},
		{"", spool.KindNone},
	} {
		m := spool.Marker{Event: "PostModelRequest", Status: tc.status, Error: "boom"}
		if got := m.Kind(); got != tc.want {
			t.Errorf("PostModelRequest %q: kind %s, want %s", tc.status, got, tc.want)
		}
	}
	// Claude Code's events ignore a status field.
	if got := (spool.Marker{Event: "Stop", Status: "failed"}).Kind(); got != spool.KindStop {
		t.Errorf("Stop with a status: kind %s", got)
	}
}

// The handler writes a failed model request as a turn_failed marker of
// the pane.
func TestHandle_CodexFailedRequest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "post-model-request-failed.json"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"XDG_RUNTIME_DIR": t.TempDir(),
		"TMUX":            "/tmp/tmux-1000/default,123,0",
		"TMUX_PANE":       "%4",
	}
	path, err := spool.Handle(strings.NewReader(string(data)), func(k string) string { return env[k] }, time.Date(2026, 12, 1, 18, 42, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, "-turn_failed.json") {
		t.Errorf("marker %s, want a turn_failed one", path)
	}
	m, err := spool.Read(path, spool.MaxMarkerSize)
	if err != nil {
		t.Fatal(err)
	}
	if m.Pane != "tmux:/tmp/tmux-1000/default:%4" || m.Kind() != spool.KindTurnFailed || m.Error == "" {
		t.Errorf("marker %+v", m)
	}
}
