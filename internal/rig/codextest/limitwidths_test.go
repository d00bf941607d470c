package codextest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// limitWidths are the pane widths the usage limit is recorded at. Codex
// wraps its limit message itself: at 80 and 120 columns "try again at …"
// is on a row of its own, below the "■" row; from about 166 columns the
// message fits one row.
var limitWidths = []int{80, 120, 166, 250}

// limitResetAfter is how far after the recording's first second, cut to
// the minute, the fake's usage limit resets: a whole minute, so that the
// time Codex prints ("try again at 9:12 PM.") is the reset itself, and a
// reader of the recording can tell it from the cast header's timestamp.
const limitResetAfter = 2*time.Hour + 30*time.Minute

// TestCodexLimitWidths records, or checks, the 5-hour usage limit in
// panes of limitWidths columns: usage-limit-<width>col-<version>.cast,
// the limit screen with Codex's model menu open, then with it dismissed.
// -run TestCodexLimitWidths -args -record re-records them.
func TestCodexLimitWidths(t *testing.T) {
	rec := *record || os.Getenv("CODEMAN_RECORD") == "1"
	for _, width := range limitWidths {
		name := "usage-limit-" + strconv.Itoa(width) + "col"
		t.Run(name, func(t *testing.T) {
			s := codextest.NewSession(t, codextest.Options{RecordHooks: true, Record: rec, Width: width})
			r := &recording{t: t, s: s, record: rec, start: time.Now(), version: s.Version()}
			if rec {
				r.start = s.RecordStart()
			}
			r.mark(fmt.Sprintf("idle composer drawn (Codex %s, %d columns)", r.version, width))
			reset := r.start.Truncate(time.Minute).Add(limitResetAfter)
			s.API().Handle("keep going", fakeopenai.Reply{Status: 429, UsageLimit: &fakeopenai.UsageLimit{ResetAt: reset}})
			r.hold(2*time.Second, "idle before the prompt")
			r.typeText("keep going")
			r.screen(name, "■ You’ve hit your usage limit.", "Approaching rate limits", "enter select · esc back", "!"+footer)
			// The payload is hooks/testdata/codex/post-model-request-usage-limit.json's.
			s.WaitForEvent(failedModelRequest(r.start), "PostModelRequest failed", 15*time.Second)
			r.mark("PostModelRequest failed")
			r.hold(3*time.Second, "the model menu left open")
			r.keys("Escape")
			r.screen(name+"-dismissed", "■ You’ve hit your usage limit.", composer, footer, "!enter select")
			r.hold(4*time.Second, "idle after the limit")
			if !rec {
				return
			}
			path := filepath.Join(castDir, name+"-"+r.version+".cast")
			s.SaveCast(path)
			t.Logf("wrote %s (reset %s)", path, reset.UTC().Format(time.Kitchen))
		})
	}
}
