package simclaude

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

func TestPainter_RedrawsOnlyChangedRows(t *testing.T) {
	var out bytes.Buffer
	p := newPainter(&out, 20, 4)
	if err := p.draw([]string{"one", "two", "three", "four"}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := p.draw([]string{"one", "TWO", "three", "four"}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "\x1b[2;1H\x1b[0mTWO\x1b[0m\x1b[K" {
		t.Errorf("second draw wrote %q", got)
	}
	out.Reset()
	if err := p.draw([]string{"one", "TWO", "three", "four"}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("unchanged screen wrote %q", out.String())
	}
}

func TestPainter_ScreenThroughEmulator(t *testing.T) {
	var out bytes.Buffer
	p := newPainter(&out, 10, 3)
	steps := [][]string{
		{"──────────", "❯\u00a0" + reverse(" "), fg(colorDim, "a long row that is cut")},
		{"──────────", "❯\u00a0hi", ""},
		{"", "x", "──────────"},
	}
	for _, rows := range steps {
		if err := p.draw(rows); err != nil {
			t.Fatal(err)
		}
	}
	term := vt.NewEmulator(10, 3)
	if _, err := term.Write(out.Bytes()); err != nil {
		t.Fatal(err)
	}
	want := "\nx\n──────────"
	if got := term.String(); got != want {
		t.Errorf("screen:\n%q\nwant\n%q", got, want)
	}
	p.resize(10, 3)
	out.Reset()
	if err := p.draw(steps[2]); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "\x1b[0m\x1b[2J") {
		t.Errorf("a resize does not repaint from a clear screen: %q", out.String())
	}
}
