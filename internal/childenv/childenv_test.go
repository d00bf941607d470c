package childenv_test

import (
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/internal/childenv"
)

func TestWithout(t *testing.T) {
	env := []string{"HOME=/home/dev", "TMUX=/tmp/tmux-1000/default,1,0", "TMUX_PANE=%3", "TMUXX=kept",
		"PATH=/usr/bin", "STY=1.pts-0.host", "EMPTY="}
	got := childenv.Without(env, "TMUX", "TMUX_PANE", "STY", "EMPTY")
	want := []string{"HOME=/home/dev", "TMUXX=kept", "PATH=/usr/bin"}
	if !slices.Equal(got, want) {
		t.Errorf("Without = %q, want %q", got, want)
	}
	if env[1] != "TMUX=/tmp/tmux-1000/default,1,0" {
		t.Errorf("Without changed its input: %q", env)
	}
}
