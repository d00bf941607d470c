package history

import "testing"

func TestFileName_RoundTrip(t *testing.T) {
	for _, pane := range []string{
		"tmux:/tmp/tmux-1000/default:%3",
		"screen:12345.work:0",
		"replay:respawn/testdata/replay/turn-ends.cast",
		".hidden:..",
		"a b/ç%2F",
	} {
		name := fileName(pane)
		for _, c := range []byte(name) {
			if c == '/' || c == ':' || c == 0 {
				t.Fatalf("fileName(%q) = %q holds %q", pane, name, c)
			}
		}
		if name[0] == '.' {
			t.Fatalf("fileName(%q) = %q is hidden", pane, name)
		}
		for n, file := range map[int]string{0: name, 2: rotated(pane, 2)} {
			got, gotN, ok := paneOf(file)
			if !ok || got != pane || gotN != n {
				t.Errorf("paneOf(%q) = %q, %d, %v; want %q, %d", file, got, gotN, ok, pane, n)
			}
		}
	}
	if got := fileName("tmux:/tmp/tmux-1000/default:%3"); got != "tmux%3A%2Ftmp%2Ftmux-1000%2Fdefault%3A%253.jsonl" {
		t.Errorf("fileName = %q", got)
	}
}

func TestPaneOf_NotHistory(t *testing.T) {
	for _, name := range []string{"daemon.log", ".jsonl", "x.jsonl.0", "x.jsonl.01", "x.jsonl.-1", "x.json", "a%2.jsonl", "a%zz.jsonl", "a:b.jsonl", ".prune-123"} {
		if p, n, ok := paneOf(name); ok {
			t.Errorf("paneOf(%q) = %q, %d: not a history file", name, p, n)
		}
	}
}
