package respawn_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// The core over the real recordings of every tested Claude Code version
// (agents/claude/testdata/replay: "question.cast" is 2.1.328's,
// "question-2.1.332.cast" a later version's). respawn/replay's golden
// tests pin each timeline; these check what must hold on every version.

// unversioned is the version of the recordings whose names carry none.
const unversioned = "2.1.328"

var versionedCast = regexp.MustCompile(`^(.+)-(\d+\.\d+\.\d+)\.cast$`)

// recording is one fixture: a scenario recorded with one version.
type recording struct {
	scenario, version, path string
}

func recordings(t *testing.T) []recording {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "agents", "claude", "testdata", "replay", "*.cast"))
	if len(paths) == 0 {
		t.Skip("no recordings in agents/claude/testdata/replay")
	}
	var out []recording
	for _, p := range paths {
		name := filepath.Base(p)
		rec := recording{scenario: strings.TrimSuffix(name, ".cast"), version: unversioned, path: p}
		if m := versionedCast.FindStringSubmatch(name); m != nil {
			rec.scenario, rec.version = m[1], m[2]
		}
		out = append(out, rec)
	}
	return out
}

// replayed is a recording run through the core.
type replayed struct {
	timeline []replay.Entry
	hooks    map[string][]float64 // hook_event_name -> times the hook ran
}

func replayRecording(t *testing.T, path string) replayed {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := replay.Read(f, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	cfg := respawn.DefaultConfig()
	cfg.KickstartPrompt = "continue with the next task"
	tl, err := replay.Run(c, replay.Options{Config: cfg, Agent: claude.DefaultPatterns(), Interpret: hooks.InterpretPayload})
	if err != nil {
		t.Fatal(err)
	}
	return replayed{timeline: tl, hooks: c.HookTimes()}
}

// sends lists what the core typed or pressed, as "text" or "key Enter".
func (r replayed) sends() []string {
	var out []string
	for _, e := range r.timeline {
		switch {
		case e.Event != "send":
		case e.Key != "":
			out = append(out, "key "+string(e.Key))
		default:
			out = append(out, *e.Text)
		}
	}
	return out
}

func (r replayed) firstSend() (replay.Entry, bool) {
	i := slices.IndexFunc(r.timeline, func(e replay.Entry) bool { return e.Event == "send" })
	if i < 0 {
		return replay.Entry{}, false
	}
	return r.timeline[i], true
}

func (r replayed) has(substr string) bool {
	return slices.ContainsFunc(r.timeline, func(e replay.Entry) bool { return strings.Contains(e.Reason, substr) })
}

func (r replayed) String() string {
	var b strings.Builder
	for _, e := range r.timeline {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

// A scenario recorded with several versions makes the core type the same
// things on each.
func TestRecordings_SameSendsOnEveryVersion(t *testing.T) {
	byScenario := map[string][]recording{}
	for _, rec := range recordings(t) {
		byScenario[rec.scenario] = append(byScenario[rec.scenario], rec)
	}
	for scenario, recs := range byScenario {
		if len(recs) < 2 {
			continue
		}
		t.Run(scenario, func(t *testing.T) {
			first := replayRecording(t, recs[0].path)
			for _, rec := range recs[1:] {
				other := replayRecording(t, rec.path)
				if !slices.Equal(first.sends(), other.sends()) {
					t.Errorf("sends on %s: %q\non %s: %q\n%s", recs[0].version, first.sends(), rec.version, other.sends(), other)
				}
			}
		})
	}
}

// Usage limits on every version: nothing is typed while a limit stands or
// a limit menu waits for a person, and once Claude Code continued by
// itself no resume prompt follows, only the cycle after its turn.
func TestRecordings_UsageLimits(t *testing.T) {
	resume := respawn.DefaultConfig().ResumePrompt
	for _, rec := range recordings(t) {
		switch rec.scenario {
		case "usage-limit", "usage-limit-esc", "usage-limit-menu", "weekly-limit", "monitor":
			t.Run(filepath.Base(rec.path), func(t *testing.T) {
				r := replayRecording(t, rec.path)
				if got := r.sends(); len(got) != 0 {
					t.Errorf("sends %q, want none\n%s", got, r)
				}
			})
		case "usage-limit-continue":
			t.Run(filepath.Base(rec.path), func(t *testing.T) {
				r := replayRecording(t, rec.path)
				if slices.Contains(r.sends(), resume) {
					t.Errorf("the resume prompt was typed after Claude Code continued by itself\n%s", r)
				}
				if !r.has("Claude continued by itself") {
					t.Errorf("no decision says Claude continued by itself\n%s", r)
				}
				stops := r.hooks["Stop"]
				if len(stops) != 1 {
					t.Fatalf("%d Stop hooks in the recording, want 1: Claude Code's own turn", len(stops))
				}
				if first, ok := r.firstSend(); ok && (first.T < stops[0] || first.Step != respawn.StepUpdate) {
					t.Errorf("first send %s at %.1fs, want the update prompt after Claude's own turn ended at %.1fs\n%s",
						first.Step, first.T, stops[0], r)
				}
			})
		}
	}
}
