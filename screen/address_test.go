package screen

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestWindow_Address(t *testing.T) {
	w := Window{Session: "12345.pts-0.host", Window: "2"}
	if got := w.Address(); got != "screen:12345.pts-0.host:2" {
		t.Errorf("Address() = %q", got)
	}
	back, err := ParseAddress(w.Address())
	if err != nil || back != w {
		t.Errorf("ParseAddress(Address()) = %+v, %v", back, err)
	}
}

func TestParseAddress(t *testing.T) {
	good := map[string]Window{
		"screen:12345.pts-0.host:0": {"12345.pts-0.host", "0"},
		"screen:7.work:12":          {"7.work", "12"},
		"screen:7.a:b:3":            {"7.a:b", "3"}, // the window is after the last colon
	}
	for in, want := range good {
		got, err := ParseAddress(in)
		if err != nil || got != want {
			t.Errorf("ParseAddress(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	bad := map[string]string{
		"tmux:/tmp/tmux-0/default:%3": "want screen:",
		"screen:12345.host":           "want screen:PID.NAME:WINDOW",
		"screen:work:0":               "not PID.NAME",
		"screen:12345.host:x":         "not a number",
		"screen:.host:1":              "not PID.NAME",
		"screen:12345.:1":             "not PID.NAME",
		"screen:":                     "want screen:",
	}
	for in, want := range bad {
		_, err := ParseAddress(in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), in) {
			t.Errorf("ParseAddress(%q) err = %v, want one naming the address and saying %q", in, err, want)
		}
	}
}

func TestMatchSession(t *testing.T) {
	sessions := []Session{
		{Name: "100.work", PID: 100, State: "Detached"},
		{Name: "200.work", PID: 200, State: "Attached"},
		{Name: "300.pts-0.host", PID: 300, State: "Detached"},
		{Name: "400.old", PID: 400, State: "Dead ???"},
		{Name: "500.solo", PID: 500, State: "Multi, detached"},
	}
	for spec, want := range map[string]string{
		"100.work":       "100.work",
		"200":            "200.work",
		"solo":           "500.solo",
		"300.pts-0.host": "300.pts-0.host",
		"pts-0.host":     "300.pts-0.host",
	} {
		got, err := matchSession(spec, sessions)
		if err != nil || got.Name != want {
			t.Errorf("matchSession(%q) = %q, %v; want %q", spec, got.Name, err, want)
		}
	}
	errs := map[string][]string{
		"work":    {`"work" names 2 sessions`, "100.work, 200.work"},
		"nope":    {`no such screen session "nope"`, "running: 100.work, 200.work, 300.pts-0.host, 500.solo"},
		"400.old": {"400.old is dead ???", "screen -wipe"},
		"old":     {`no such screen session "old"`},
		"wo":      {`no such screen session "wo"`}, // no prefix matching: a name is whole
	}
	for spec, wants := range errs {
		_, err := matchSession(spec, sessions)
		for _, want := range wants {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("matchSession(%q) err = %v, want %q in it", spec, err, want)
			}
		}
	}
	_, err := matchSession("work", nil)
	if !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "none is running") {
		t.Errorf("matchSession with no sessions: err = %v", err)
	}
}

func TestResolveTarget(t *testing.T) {
	f := newFakeScreen("4242.work")
	f.addWindow("0", 80, "$ ")
	f.addWindow("3", 80, "$ ")
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	none := env(nil)
	ctx := context.Background()
	tests := []struct {
		arg  string
		env  func(string) string
		want string
	}{
		{"screen:work:0", none, "screen:4242.work:0"},
		{"screen:4242:3", none, "screen:4242.work:3"},
		{"screen:4242.work", none, "screen:4242.work:3"}, // the session's current window
		{"", env(map[string]string{"STY": "4242.work", "WINDOW": "0"}), "screen:4242.work:0"},
		{"screen", env(map[string]string{"STY": "4242.work", "WINDOW": "3"}), "screen:4242.work:3"},
	}
	for _, tt := range tests {
		w, err := ResolveTarget(ctx, f, tt.arg, tt.env)
		if err != nil || w.Address() != tt.want {
			t.Errorf("ResolveTarget(%q) = %v, %v; want %s", tt.arg, w, err, tt.want)
		}
	}
	bad := []struct {
		arg  string
		env  func(string) string
		want error
		text string
	}{
		{"screen:work:7", none, ErrNoWindow, "screen:4242.work:7"},
		{"screen:other", none, ErrNoSession, "running: 4242.work"},
		{"", none, nil, "STY is not set"},
		{"", env(map[string]string{"STY": "4242.work", "WINDOW": "9"}), ErrNoWindow, "screen:4242.work:9"},
		{"", env(map[string]string{"STY": "4242.work"}), nil, `WINDOW=""`},
		{"%3", none, nil, "want screen:SESSION[:WINDOW]"},
	}
	for _, tt := range bad {
		_, err := ResolveTarget(ctx, f, tt.arg, tt.env)
		if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("ResolveTarget(%q) err = %v, want %v with %q", tt.arg, err, tt.want, tt.text)
		}
	}
}

func TestWindowNumber_TitleLikeAMessage(t *testing.T) {
	f := newFakeScreen("4242.work")
	for i, title := range []string{msgNoSession, msgNoWindow, "info command cannot be queried."} {
		w := f.addWindow("0", 80, "x")
		w.title = title
		n, err := windowNumber(context.Background(), f, Window{Session: "4242.work", Window: "0"})
		if err != nil || n != "0" {
			t.Errorf("%d: window titled %q: number = %q, %v", i, title, n, err)
		}
	}
}

// One window has one address, however its numbers were written.
func TestParseAddress_Canonical(t *testing.T) {
	for _, in := range []string{"screen:123.work:1", "screen:123.work:01", "screen:0123.work:001"} {
		w, err := ParseAddress(in)
		if err != nil {
			t.Fatalf("ParseAddress(%q): %v", in, err)
		}
		if got := w.Address(); got != "screen:123.work:1" {
			t.Errorf("ParseAddress(%q).Address() = %q, want screen:123.work:1", in, got)
		}
	}
	w, err := ParseAddress("screen:123.work:0")
	if err != nil || w.Window != "0" {
		t.Fatalf("window 0: %+v, %v", w, err)
	}
}
