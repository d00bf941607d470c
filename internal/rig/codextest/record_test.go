package codextest_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/codextest"
)

var record = flag.Bool("record", false, "re-record agents/codex/testdata and hooks/testdata/codex with the real Codex CLI")

// Where the fixtures go: the recordings and their screens under
// agents/codex's testdata, the hook payloads under hooks'.
var (
	castDir   = filepath.Join("..", "..", "..", "agents", "codex", "testdata")
	screenDir = filepath.Join(castDir, "screens")
	hookDir   = filepath.Join("..", "..", "..", "hooks", "testdata", "codex")
)

// recording drives one scenario's session. When recording it writes the
// fixtures and holds each state for real seconds; otherwise it checks the
// live CLI against the fixtures and holds nothing.
type recording struct {
	t       *testing.T
	s       *codextest.Session
	record  bool
	start   time.Time
	version string
	log     []string
}

// TestCodexFixtures runs every scenario against the real Codex CLI. By
// default it checks that the fixtures still describe the CLI: each saved
// screen's key strings show on the live screen at the same step (and are
// in the saved screen), and each saved hook payload has the same top-level
// fields as the live one. With -record (or CODEMAN_RECORD=1) it re-records
// the fixtures instead; -run TestCodexFixtures/approval re-records one.
func TestCodexFixtures(t *testing.T) {
	rec := *record || os.Getenv("CODEMAN_RECORD") == "1"
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			opts := sc.opts
			opts.RecordHooks, opts.RecordNotify, opts.Record = true, true, rec
			s := codextest.NewSession(t, opts)
			r := &recording{t: t, s: s, record: rec, start: time.Now(), version: s.Version()}
			if rec {
				r.start = s.RecordStart()
			}
			r.mark("idle composer drawn (Codex " + r.version + ")")
			sc.run(r)
			if !rec {
				return
			}
			path := filepath.Join(castDir, sc.name+"-"+r.version+".cast")
			s.SaveCast(path)
			for _, req := range s.API().Requests() {
				r.log = append(r.log, fmt.Sprintf("%s\tAPI %s status=%d retry=%t title=%t tool_output=%t %.60q",
					r.since(req.At), req.Path, req.Status, req.Retry, req.Title, req.ToolOutput, req.LastUserText))
			}
			for _, e := range s.Events() {
				r.log = append(r.log, fmt.Sprintf("%s\t%s %s", r.since(e.At), e.Kind, e.Name))
			}
			t.Logf("wrote %s\n%s", path, strings.Join(r.log, "\n"))
		})
	}
}

func (r *recording) since(at time.Time) string {
	return at.Sub(r.start).Truncate(100 * time.Millisecond).String()
}

func (r *recording) mark(what string) {
	r.log = append(r.log, r.since(time.Now())+"\t"+what)
}

// hold leaves the pane alone for d when recording: a recording needs real
// seconds of an unchanging state (idle, a dialog left open), which no
// condition marks.
func (r *recording) hold(d time.Duration, what string) {
	if !r.record {
		return
	}
	r.mark("hold " + d.String() + ": " + what)
	time.Sleep(d)
	r.s.WaitFor(func(string) bool { return true }, "the pane to still be there", time.Second)
}

func (r *recording) typeText(text string) {
	r.t.Helper()
	r.s.Type(text)
	r.mark("typed " + text + " + Enter")
}

func (r *recording) keys(keys ...string) {
	r.t.Helper()
	r.s.SendKeys(keys...)
	r.mark("keys " + strings.Join(keys, " "))
}

func (r *recording) waitFor(pred func(string) bool, what string, timeout time.Duration) string {
	r.t.Helper()
	screen := r.s.WaitFor(pred, what, timeout)
	r.mark(what)
	return screen
}

// screen names the state the pane is in, by key strings that must show on
// it ("!text": must not). Recording, it writes the screen to
// v<version>-<situation>.txt (capture-pane -p) and .ansi (-e) once the
// keys hold. Checking, it requires the keys on the live screen and in the
// saved screen of the pinned version, so that a new CLI is checked against
// the fixtures the detection table was built from.
func (r *recording) screen(situation string, keys ...string) {
	r.t.Helper()
	version := codextest.Version
	if r.record {
		version = r.version
	}
	base := filepath.Join(screenDir, "v"+version+"-"+situation)
	live := r.s.WaitFor(func(screen string) bool { return len(unmet(screen, keys)) == 0 },
		fmt.Sprintf("the %s screen's key strings %q", situation, keys), time.Minute)
	r.mark("screen " + filepath.Base(base) + " title " + fmt.Sprintf("%q", r.s.PaneTitle()))
	if r.record {
		for ext, text := range map[string]string{".txt": live, ".ansi": r.s.CaptureANSI()} {
			if err := os.WriteFile(base+ext, []byte(strings.TrimRight(text, "\n")+"\n"), 0o644); err != nil {
				r.t.Fatal(err)
			}
		}
		return
	}
	saved, err := os.ReadFile(base + ".txt")
	if err != nil {
		r.t.Fatalf("%v (record the fixtures with -record)", err)
	}
	if missed := unmet(string(saved), keys); len(missed) > 0 {
		r.t.Errorf("%s.txt does not hold %q, which the live CLI does: re-record the fixtures", base, missed)
	}
}

// unmet returns the keys screen does not satisfy.
func unmet(screen string, keys []string) []string {
	var out []string
	for _, k := range keys {
		if absent, ok := strings.CutPrefix(k, "!"); ok {
			if strings.Contains(screen, absent) {
				out = append(out, k)
			}
		} else if !strings.Contains(screen, k) {
			out = append(out, k)
		}
	}
	return out
}

// hook names a hook call or notify run the scenario must make. Recording,
// it writes its payload, indented, to hooks/testdata/codex/<file>.json.
// Checking, the live payload must have the saved one's top-level fields.
func (r *recording) hook(file string, pred func(codextest.Event) bool, what string) {
	r.t.Helper()
	e := r.s.WaitForEvent(pred, what, 15*time.Second)
	path := filepath.Join(hookDir, file+".json")
	if r.record {
		var pretty map[string]any
		if err := json.Unmarshal(e.Payload, &pretty); err != nil {
			r.t.Fatal(err)
		}
		data, err := json.MarshalIndent(pretty, "", "  ")
		if err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			r.t.Fatal(err)
		}
		return
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		r.t.Fatalf("%v (record the fixtures with -record)", err)
	}
	if want, got := fieldNames(r.t, saved), fieldNames(r.t, e.Payload); !slices.Equal(want, got) {
		r.t.Errorf("%s: fields %v, the live %s payload has %v: re-record the fixtures", path, want, what, got)
	}
}

func fieldNames(t *testing.T, payload []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatalf("payload %s: %v", payload, err)
	}
	return slices.Sorted(maps.Keys(m))
}

// dur is d when recording and a tenth of it when checking: the waits that
// make a recording show a state long enough only slow a check down.
func (r *recording) dur(d time.Duration) time.Duration {
	if r.record {
		return d
	}
	return d / 10
}
