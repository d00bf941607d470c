package hooks_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/hooks"
)

var handlerTime = time.Date(2026, 11, 29, 19, 13, 0, 123456789, time.UTC)

// TestHandle_ReferencePayloads writes one marker per real payload, holding
// the pane, the handler's time and the kept fields, and nothing else.
func TestHandle_ReferencePayloads(t *testing.T) {
	for _, c := range referencePayloads(t) {
		env, spool := tmuxEnv(t)
		path, err := hooks.Handle(bytes.NewReader(c.Payload), envOf(env), handlerTime)
		if err != nil {
			t.Fatalf("%s: %v", c.Label, err)
		}
		if filepath.Dir(path) != spool {
			t.Errorf("%s: marker %s not in %s", c.Label, path, spool)
		}
		ms := readMarkers(t, spool)
		if len(ms) != 1 {
			t.Fatalf("%s: %d markers, want 1: %v", c.Label, len(ms), markerFiles(t, spool))
		}
		if want := expectedMarker(t, c.Payload); !equalMarkers(ms[0], want) {
			t.Errorf("%s: marker\n%+v\nwant\n%+v", c.Label, ms[0], want)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, bulky := range []string{"tool_input", "tool_response", "transcript_path", "last_assistant_message"} {
			if bytes.Contains(data, []byte(bulky)) {
				t.Errorf("%s: marker keeps %s: %s", c.Label, bulky, data)
			}
		}
	}
}

// expectedMarker decodes the kept fields straight from the payload.
func expectedMarker(t *testing.T, payload []byte) hooks.Marker {
	t.Helper()
	var p struct {
		Event            string `json:"hook_event_name"`
		NotificationType string `json:"notification_type"`
		Tool             string `json:"tool_name"`
		Source           string `json:"source"`
		Reason           string `json:"reason"`
		Error            string `json:"error"`
		Message          string `json:"message"`
		SessionID        string `json:"session_id"`
		AgentID          string `json:"agent_id"`
		Cwd              string `json:"cwd"`
		BackgroundTasks  []struct {
			Status string `json:"status"`
		} `json:"background_tasks"`
		ToolInput struct {
			Questions []struct {
				Question string `json:"question"`
			} `json:"questions"`
			Command  string `json:"command"`
			FilePath string `json:"file_path"`
		} `json:"tool_input"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}
	m := hooks.Marker{Pane: testPane, Event: p.Event, NotificationType: p.NotificationType, Tool: p.Tool,
		Source: p.Source, Reason: p.Reason, Error: p.Error, Message: p.Message,
		SessionID: p.SessionID, AgentID: p.AgentID, Cwd: p.Cwd, At: handlerTime}
	for _, task := range p.BackgroundTasks {
		m.BackgroundTasks = append(m.BackgroundTasks, task.Status)
	}
	// What a person is asked, for the events that ask one.
	if in := p.ToolInput; p.Event == "PermissionRequest" || p.Tool == "AskUserQuestion" {
		switch {
		case len(in.Questions) > 0:
			m.Detail = in.Questions[0].Question
		case in.Command != "":
			m.Detail = in.Command
		default:
			m.Detail = in.FilePath
		}
	}
	return m
}

func equalMarkers(a, b hooks.Marker) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb) && a.At.Equal(b.At)
}

const stopPayload = `{"session_id":"s1","cwd":"/home/dev/proj","hook_event_name":"Stop","background_tasks":[]}`

func TestHandle_Screen(t *testing.T) {
	runtime := t.TempDir()
	env := map[string]string{"XDG_RUNTIME_DIR": runtime, "STY": "12345.pts-0.host", "WINDOW": "2"}
	if _, err := hooks.Handle(strings.NewReader(stopPayload), envOf(env), handlerTime); err != nil {
		t.Fatal(err)
	}
	ms := readMarkers(t, filepath.Join(runtime, "codeman", "spool"))
	if len(ms) != 1 || ms[0].Pane != "screen:12345.pts-0.host:2" {
		t.Fatalf("markers = %+v, want one for screen:12345.pts-0.host:2", ms)
	}
}

// TestHandle_WritesNothing covers every reason to stay out of the way: each
// case must leave the runtime dir without a marker.
func TestHandle_WritesNothing(t *testing.T) {
	big := bytes.Repeat([]byte(" "), 10<<20) // 10 MB of blanks around a valid payload
	copy(big, stopPayload)
	tests := []struct {
		name    string
		input   string
		env     func(map[string]string)
		wantErr error
	}{
		{"NoPane", stopPayload, func(e map[string]string) { delete(e, "TMUX"); delete(e, "TMUX_PANE") }, hooks.ErrNoPane},
		{"PaneWithoutSocket", stopPayload, func(e map[string]string) { delete(e, "TMUX") }, hooks.ErrNoPane},
		{"InsideCheck", stopPayload, func(e map[string]string) { e["CODEMAN_CHECK"] = "1" }, hooks.ErrInsideCheck},
		{"InvalidJSON", `{"hook_event_name":"Stop",`, nil, nil},
		{"Garbage", "\x00\xff not json", nil, nil},
		{"Empty", "", nil, nil},
		{"NotAnObject", `["Stop"]`, nil, nil},
		{"NoEventName", `{"session_id":"s1"}`, nil, nil},
		{"TooLarge", string(big), nil, hooks.ErrInputTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, spool := tmuxEnv(t)
			if tt.env != nil {
				tt.env(env)
			}
			_, err := hooks.Handle(strings.NewReader(tt.input), envOf(env), handlerTime)
			if err == nil {
				t.Fatal("Handle wrote a marker")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if names := markerFiles(t, spool); len(names) > 0 {
				t.Errorf("spool dir holds %v", names)
			}
		})
	}
}

// countingReader counts what the handler read from a huge stdin.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestHandle_OversizedInputStopsReading(t *testing.T) {
	env, _ := tmuxEnv(t)
	in := &countingReader{r: io.LimitReader(zeros{}, 10<<20)}
	if _, err := hooks.Handle(in, envOf(env), handlerTime); !errors.Is(err, hooks.ErrInputTooLarge) {
		t.Fatalf("err = %v, want ErrInputTooLarge", err)
	}
	if in.n > hooks.MaxHookInput+1 {
		t.Errorf("read %d bytes of 10 MB, want at most %d", in.n, hooks.MaxHookInput+1)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestHandle_StdinClosedEarly: Claude's end of the pipe goes away in the
// middle of the payload.
func TestHandle_StdinClosedEarly(t *testing.T) {
	env, spool := tmuxEnv(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.WriteString(stopPayload[:20]); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := hooks.Handle(r, envOf(env), handlerTime); err == nil {
		t.Fatal("Handle wrote a marker for half a payload")
	}
	if names := markerFiles(t, spool); len(names) > 0 {
		t.Errorf("spool dir holds %v", names)
	}
}

func TestHandle_UnsafeRuntimeDir(t *testing.T) {
	t.Run("Symlink", func(t *testing.T) {
		env, _ := tmuxEnv(t)
		elsewhere := t.TempDir()
		if err := os.Symlink(elsewhere, filepath.Join(env["XDG_RUNTIME_DIR"], "codeman")); err != nil {
			t.Fatal(err)
		}
		if _, err := hooks.Handle(strings.NewReader(stopPayload), envOf(env), handlerTime); err == nil {
			t.Fatal("Handle followed a symlinked runtime dir")
		}
		if names := markerFiles(t, elsewhere); len(names) > 0 {
			t.Errorf("link target holds %v", names)
		}
	})
	t.Run("OtherOwner", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to create a dir owned by another user")
		}
		env, spool := tmuxEnv(t)
		dir := filepath.Join(env["XDG_RUNTIME_DIR"], "codeman")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := hooks.Handle(strings.NewReader(stopPayload), envOf(env), handlerTime); err == nil {
			t.Fatal("Handle used a runtime dir owned by another user")
		}
		if names := markerFiles(t, spool); len(names) > 0 {
			t.Errorf("spool dir holds %v", names)
		}
	})
	t.Run("OpenToOthers", func(t *testing.T) {
		env, _ := tmuxEnv(t)
		dir := filepath.Join(env["XDG_RUNTIME_DIR"], "codeman")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if _, err := hooks.Handle(strings.NewReader(stopPayload), envOf(env), handlerTime); err == nil {
			t.Fatal("Handle used a world-writable runtime dir")
		}
	})
}

// TestHandle_MarkerNames: one name per pane and kind, so a marker replaces
// the one before it of its pane and kind and nothing else.
func TestHandle_MarkerNames(t *testing.T) {
	env, spool := tmuxEnv(t)
	first := fire(t, env, stopPayload, handlerTime)
	again := fire(t, env, stopPayload, handlerTime.Add(time.Second))
	other := fire(t, env, promptPayload, handlerTime.Add(2*time.Second))
	env["TMUX_PANE"] = "%4"
	otherPane := fire(t, env, stopPayload, handlerTime.Add(3*time.Second))
	if again != first || other == first || otherPane == first || otherPane == other {
		t.Errorf("names: stop %s, stop again %s, prompt %s, stop of %%4 %s", filepath.Base(first), filepath.Base(again), filepath.Base(other), filepath.Base(otherPane))
	}
	if names := markerFiles(t, spool); len(names) != 3 {
		t.Errorf("spool holds %v, want 3 markers", names)
	}
	ms := readMarkers(t, spool)
	for _, m := range ms {
		if m.Event == "Stop" && m.Pane == testPane && !m.At.Equal(handlerTime.Add(time.Second)) {
			t.Errorf("stop marker of %s holds %v, want the second one", testPane, m.At)
		}
	}
	info, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("marker mode %04o, want 0600", perm)
	}
}

func TestHandle_ClipsLongFields(t *testing.T) {
	env, spool := tmuxEnv(t)
	long := strings.Repeat("é", 2000)
	payload := `{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"` + long + `","error":{"not":"a string"}}`
	if _, err := hooks.Handle(strings.NewReader(payload), envOf(env), handlerTime); err != nil {
		t.Fatal(err)
	}
	m := readMarkers(t, spool)[0]
	if len(m.Message) > 512 || !strings.HasPrefix(long, m.Message) || m.Message == "" {
		t.Errorf("message of %d bytes, want a prefix of at most 512 bytes on a rune boundary", len(m.Message))
	}
	if m.Error != "" {
		t.Errorf("error = %q, want empty for a non-string value", m.Error)
	}
}

// TestHandle_ManyBackgroundTasks: a Stop listing hundreds of tasks with
// long statuses still makes a marker the watcher reads, counting the
// running ones.
func TestHandle_ManyBackgroundTasks(t *testing.T) {
	env, spool := tmuxEnv(t)
	var tasks []string
	for i := range 300 {
		status := strings.Repeat("<", 500)
		if i%100 == 7 {
			status = "running"
		}
		tasks = append(tasks, `{"id":"t`+strconv.Itoa(i)+`","status":"`+status+`"}`)
	}
	payload := `{"hook_event_name":"Stop","background_tasks":[` + strings.Join(tasks, ",") + `]}`
	path := fire(t, env, payload, handlerTime)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > hooks.DefaultMaxMarkerSize {
		t.Errorf("marker of %d bytes, over the watcher's cap of %d", info.Size(), hooks.DefaultMaxMarkerSize)
	}
	ms := readMarkers(t, spool)
	if len(ms) != 1 {
		t.Fatalf("%d markers, want 1", len(ms))
	}
	if _, h, ok := hooks.Interpret(ms[0]); !ok || h.Background != 3 {
		t.Errorf("hook %+v, want a Stop with 3 tasks running", h)
	}
}
