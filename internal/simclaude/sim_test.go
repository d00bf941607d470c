package simclaude

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// t0 is the start of every model test; UTC keeps the clock lines fixed.
var t0 = time.Date(2026, 11, 29, 18, 47, 0, 0, time.UTC)

// sim drives a model by hand: times are passed in, nothing sleeps.
type sim struct {
	t     *testing.T
	m     *model
	now   time.Time
	hooks []object   // every payload so far
	args  []string   // the hook command's argument for each
	logs  []LogEntry // every log entry so far
}

func newSim(t *testing.T, edit func(*Options)) *sim {
	t.Helper()
	t.Setenv("HOME", "/home/dev")
	opts := Options{Cwd: "/home/dev/proj", Seed: 1}
	if edit != nil {
		edit(&opts)
	}
	opts, err := opts.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	s := &sim{t: t, m: newModel(opts), now: t0}
	s.m.start(t0)
	s.collect()
	return s
}

// at moves time to t0+d and runs what is due.
func (s *sim) at(d time.Duration) {
	s.t.Helper()
	if next := t0.Add(d); next.Before(s.now) {
		s.t.Fatalf("time runs backwards: %s", d)
	}
	s.now = t0.Add(d)
	s.m.advance(s.now)
	s.collect()
}

// after moves time on by d.
func (s *sim) after(d time.Duration) { s.at(s.now.Sub(t0) + d) }

func (s *sim) collect() {
	for _, p := range s.m.payloads {
		s.hooks = append(s.hooks, p.payload)
		s.args = append(s.args, p.arg)
	}
	s.logs = append(s.logs, s.m.logs...)
	s.m.payloads, s.m.logs = nil, nil
}

// input delivers one event as a read of its own.
func (s *sim) input(ev inputEvent) { s.read(ev) }

// read delivers events as one read of the terminal.
func (s *sim) read(events ...inputEvent) {
	s.m.onRead(events, s.now)
	s.m.advance(s.now)
	s.collect()
}

func (s *sim) typeText(text string) { s.input(inputEvent{kind: evText, text: text}) }
func (s *sim) paste(text string)    { s.input(inputEvent{kind: evPaste, text: text}) }
func (s *sim) key(name string)      { s.input(inputEvent{kind: evKey, key: name}) }

func (s *sim) submit(text string) {
	s.typeText(text)
	s.key(keyEnter)
}

// screen is the plain 200x50 screen, trailing blanks removed per row.
func (s *sim) screen() []string { return plainRows(s.m.render(s.now, 200, 50)) }

func plainRows(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(ansi.Strip(r), " ")
	}
	return out
}

// events lists hook events since mark as "Event" or "Event:detail".
func (s *sim) events(mark int) []string {
	var out []string
	for _, p := range s.hooks[mark:] {
		e := p.get("hook_event_name").(string)
		for _, k := range []string{"tool_name", "notification_type", "source", "reason", "status", "error"} {
			if v, ok := p.get(k).(string); ok {
				e += ":" + v
				break
			}
		}
		out = append(out, e)
	}
	return out
}

// logKinds lists log entries since mark as "kind text|key busy dialog".
func (s *sim) logKinds(mark int) []string {
	var out []string
	for _, e := range s.logs[mark:] {
		out = append(out, fmt.Sprintf("%s %q%s busy=%t dialog=%s%s", e.Kind, e.Text, keySuffix(e.Key), e.Busy, e.Dialog, outcomeSuffix(e.Outcome)))
	}
	return out
}

func keySuffix(k string) string {
	if k == "" {
		return ""
	}
	return " key=" + k
}

func outcomeSuffix(o string) string {
	if o == "" {
		return ""
	}
	return " outcome=" + o
}

// has reports whether some row equals want.
func has(rows []string, want string) bool {
	for _, r := range rows {
		if r == want {
			return true
		}
	}
	return false
}

// hasMatch reports whether some row matches re.
func hasMatch(rows []string, re *regexp.Regexp) bool {
	for _, r := range rows {
		if re.MatchString(r) {
			return true
		}
	}
	return false
}

// find returns the first row that starts with prefix, or "".
func find(rows []string, prefix string) string {
	for _, r := range rows {
		if strings.HasPrefix(r, prefix) {
			return r
		}
	}
	return ""
}

// capture reads a real screen from testdata as rows.
func capture(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return rows
}

// sameRows fails with a row-by-row diff when got and want differ.
func sameRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%s row %d:\n got %q\nwant %q", what, i, got[i], want[i])
		}
	}
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %s\nwant %s", what, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

func joinPlain(rows []string) string { return strings.Join(rows, "\n") }
