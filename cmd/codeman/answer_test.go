package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
)

func TestAnswer_NeedsPaneAndChoice(t *testing.T) {
	for _, args := range [][]string{{"answer"}, {"answer", "%3"}, {"answer", "%3", "1", "2"}} {
		if _, _, err := runApp(args...); err == nil || !strings.Contains(err.Error(), "answer takes PANE and CHOICE") {
			t.Errorf("%q: %v", args, err)
		}
	}
}

// explain lists the dialog's options, marks the selected one and says how
// to answer it; the dialog's text is the agent's and shown safe.
func TestPrintAsk(t *testing.T) {
	var b bytes.Buffer
	n := &respawn.Need{Kind: respawn.NeedPermission, ID: "0123abcd", Ask: &respawn.Ask{Kind: respawn.NeedPermission,
		Text: "rm -rf ./build\x1b]52;c;aGk=\x07", Options: []string{"Yes", "No"}, Selected: 1}}
	printAsk(&b, "tmux:/tmp/tmux-0/default:%3", n)
	out := b.String()
	for _, want := range []string{"asks      rm -rf ./build", "(need 0123abcd)", "  1. Yes", "> 2. No", "codeman answer tmux:/tmp/tmux-0/default:%3 N --need 0123abcd"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\a") {
		t.Errorf("raw escape in %q", out)
	}
}
