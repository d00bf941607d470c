package screen

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestState_RoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codeman", StateFileName)
	s, err := LoadState(path)
	if err != nil || len(s.Windows) != 0 {
		t.Fatalf("LoadState of a missing file = %+v, %v; want empty", s, err)
	}
	at := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	must(t, s.Add(EnabledWindow{Address: "screen:12.work:0", Profile: "overnight", Sets: []string{"send_init=false"}, EnabledAt: at}))
	must(t, s.Add(EnabledWindow{Address: "screen:12.work:1", EnabledAt: at}))
	must(t, s.Add(EnabledWindow{Address: "screen:12.work:0", Profile: "day", EnabledAt: at.Add(time.Hour)}))
	must(t, s.Save(path))

	got, err := LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnabledWindow{
		{Address: "screen:12.work:1", EnabledAt: at},
		{Address: "screen:12.work:0", Profile: "day", EnabledAt: at.Add(time.Hour)},
	}
	if !reflect.DeepEqual(got.Windows, want) {
		t.Errorf("loaded %+v, want %+v", got.Windows, want)
	}
	if w, ok := got.Find("screen:12.work:0"); !ok || w.Profile != "day" {
		t.Errorf("Find = %+v, %v", w, ok)
	}
	if !got.Remove("screen:12.work:1") || got.Remove("screen:12.work:1") {
		t.Error("Remove did not report the entry once")
	}
	for p, mode := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, %v; want %v", p, fi.Mode().Perm(), err, mode)
		}
	}
}

func TestState_SaveEmptyWritesAList(t *testing.T) {
	path := filepath.Join(t.TempDir(), StateFileName)
	must(t, State{}.Save(path))
	data, _ := os.ReadFile(path)
	if string(data) != "{\n  \"version\": 1,\n  \"windows\": []\n}\n" {
		t.Errorf("empty state file = %q", data)
	}
}

func TestLoadState_CorruptFileIsAnError(t *testing.T) {
	tests := map[string]struct {
		content string
		want    string
	}{
		"Truncated":   {"{\n  \"version\": 1,\n  \"windows\": [\n", "unexpected EOF"},
		"Syntax":      {"{\n  \"version\": 1,\n  \"windows\": [}\n", "line 3 column"},
		"Empty":       {"", "EOF"},
		"WrongType":   {"{\"version\": 1, \"windows\": {}}", "line 1 column"},
		"UnknownKey":  {"{\"version\": 1, \"windows\": [], \"panes\": []}", `unknown field "panes"`},
		"BadAddress":  {"{\"version\": 1, \"windows\": [{\"address\": \"tmux:/s:%1\"}]}", "windows[0].address"},
		"OtherFormat": {"{\"version\": 2, \"windows\": []}", "version 2, want 1"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), StateFileName)
			must(t, os.WriteFile(path, []byte(tt.content), 0o600))
			_, err := LoadState(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadState = %v, want an error naming %s and saying %q", err, path, tt.want)
			}
		})
	}
}

func TestState_AddRejectsBadAddress(t *testing.T) {
	var s State
	if err := s.Add(EnabledWindow{Address: "screen:work:0"}); err == nil {
		t.Error("Add accepted a session name without its PID")
	}
}

func TestDefaultStatePath(t *testing.T) {
	if p := DefaultStatePath(); !strings.HasSuffix(p, filepath.Join("codeman", "screen-windows.json")) || !filepath.IsAbs(p) {
		t.Errorf("DefaultStatePath() = %q", p)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
