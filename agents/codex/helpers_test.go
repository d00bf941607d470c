package codex_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// The recordings of Codex CLI 0.171.0 (testdata/README.md).
const (
	version  = "0.171.0"
	fixtures = "testdata"
)

// scenarios are the recorded sessions, by name.
var scenarios = []string{
	"api-error", "approval", "clear", "compact", "exit", "idle", "init", "interrupt",
	"long-work", "new", "overloaded", "rate-limit", "turn-ends", "usage-limit", "weekly-limit",
}

func loadCast(t testing.TB, scenario string) *replay.Cast {
	t.Helper()
	path := filepath.Join(fixtures, scenario+"-"+version+".cast")
	c, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// loadScreen reads a saved pane (capture-pane -p) of the recordings.
func loadScreen(t testing.TB, situation string) respawn.Screen {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "screens", "v"+version+"-"+situation+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return respawn.Screen{Lines: lines, Width: 200, Height: len(lines)}
}

// frame is the screen after one output event of a recording.
type frame struct {
	t      float64
	screen respawn.Screen
}

// frames renders a recording as replay does and returns the screen after
// every output event that changed it.
func frames(t testing.TB, c *replay.Cast) []frame {
	t.Helper()
	emu := vt.NewEmulator(c.Header.Width, c.Header.Height)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(io.Discard, emu)
	}()
	defer func() {
		if in, ok := emu.InputPipe().(io.Closer); ok {
			_ = in.Close()
		}
		<-drained
		emu.Close()
	}()
	var out []frame
	prev := ""
	for _, ev := range c.Events {
		if ev.Kind != "o" {
			continue
		}
		emu.WriteString(ev.Data)
		text := emu.String()
		if text == prev {
			continue
		}
		prev = text
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		out = append(out, frame{t: ev.Time, screen: respawn.Screen{Lines: lines, Width: c.Header.Width, Height: c.Header.Height}})
	}
	return out
}

// frameAt returns the last frame drawn at or before t seconds.
func frameAt(t testing.TB, fs []frame, at float64) frame {
	t.Helper()
	var got frame
	for _, f := range fs {
		if f.t > at {
			break
		}
		got = f
	}
	if got.screen.Lines == nil {
		t.Fatalf("no frame by %.3fs", at)
	}
	return got
}
