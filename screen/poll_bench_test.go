package screen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jonboulle/clockwork"
)

// benchScreen is a real 200x50 Claude Code screen while it works.
func benchScreen(b *testing.B) []string {
	return readScreenFixture(b, "testdata/claude-screens/16-working-spinner-5s.txt")
}

// spinnerTick returns rows with the status line's glyph turned, as a
// working Claude Code does several times a second.
func spinnerTick(rows []string) []string {
	out := append([]string(nil), rows...)
	for i, r := range out {
		if strings.HasPrefix(r, "✶ ") {
			out[i] = "✻ " + strings.TrimPrefix(r, "✶ ")
		}
	}
	return out
}

// BenchmarkPollUnchanged is the work on a hardcopy equal to the last one:
// one comparison, no allocation.
func BenchmarkPollUnchanged(b *testing.B) {
	for _, tt := range []struct {
		name   string
		data   []byte
		decode rowDecoder
	}{
		{"Screen5", hardcopy(benchScreen(b)...), decodeUTF8Row},
		{"Screen4", loseHighBytes(benchScreen(b)), decodeLegacyRow},
	} {
		b.Run(tt.name, func(b *testing.B) {
			var f frame
			f.update(tt.data, tt.decode)
			b.SetBytes(int64(len(tt.data)))
			b.ReportAllocs()
			for b.Loop() {
				if f.update(tt.data, tt.decode) {
					b.Fatal("unchanged hardcopy seen as changed")
				}
			}
		})
	}
}

// BenchmarkPollChanged is the work on a hardcopy whose spinner glyph
// turned: one row decoded, the output line built.
func BenchmarkPollChanged(b *testing.B) {
	rows := benchScreen(b)
	for _, tt := range []struct {
		name   string
		frames [2][]byte
		decode rowDecoder
	}{
		{"Screen5", [2][]byte{hardcopy(rows...), hardcopy(spinnerTick(rows)...)}, decodeUTF8Row},
		{"Screen4", [2][]byte{loseHighBytes(rows), loseHighBytes(spinnerTick(rows))}, decodeLegacyRow},
	} {
		b.Run(tt.name, func(b *testing.B) {
			var f frame
			var out []byte
			b.SetBytes(int64(len(tt.frames[0])))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if !f.update(tt.frames[i%2], tt.decode) {
					b.Fatal("changed hardcopy seen as unchanged")
				}
				out = f.appendOutput(out[:0], 200)
				i++
			}
		})
	}
}

// BenchmarkPollTick is one whole poll of an unchanged window against a
// screen that writes the hardcopy at once: the private file created,
// requested, read, compared and removed. A real screen adds its process
// (BenchmarkPollRealScreen).
func BenchmarkPollTick(b *testing.B) {
	f := newFakeScreen("1.bench")
	f.addWindow("0", 200, benchScreen(b)...)
	p := NewPoller(Window{Session: "1.bench", Window: "0"},
		PollerOptions{Runner: f, Clock: clockwork.NewFakeClock(), TempDir: b.TempDir()})
	ctx := context.Background()
	if err := p.setUp(ctx); err != nil {
		b.Fatal(err)
	}
	defer p.cap.close()
	b.ReportAllocs()
	for b.Loop() {
		f.mu.Lock()
		f.calls = f.calls[:0]
		f.mu.Unlock()
		if changed, err := p.poll(ctx); err != nil || changed {
			b.Fatal(changed, err)
		}
	}
}

// BenchmarkPollRealScreen is one whole poll of an unchanged 80x24 window
// of a real screen session: mostly the `screen -X hardcopy` process.
func BenchmarkPollRealScreen(b *testing.B) {
	if testing.Short() {
		b.Skip("skipping GNU screen benchmark in -short mode")
	}
	if !Installed() {
		b.Skip("skipping: GNU screen (screen) is not installed")
	}
	name := fmt.Sprintf("cmbench%d", os.Getpid())
	if out, err := exec.Command("screen", "-dmS", name, "-c", "/dev/null", "sleep", "600").CombinedOutput(); err != nil {
		b.Fatalf("start screen: %v %s", err, out)
	}
	b.Cleanup(func() { exec.Command("screen", "-S", name, "-X", "quit").Run() }) // gone already is fine
	ctx := context.Background()
	sessions, err := listSessions(ctx, ExecRunner{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := matchSession(name, sessions)
	if err != nil {
		b.Fatal(err)
	}
	p := NewPoller(Window{Session: s.Name, Window: "0"}, PollerOptions{TempDir: b.TempDir()})
	if err := p.setUp(ctx); err != nil {
		b.Fatal(err)
	}
	defer p.cap.close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.poll(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
