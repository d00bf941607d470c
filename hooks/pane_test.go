package hooks_test

import (
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

func TestPaneFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string // "" for no pane
	}{
		{"Tmux", map[string]string{"TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%3"}, "tmux:/tmp/tmux-1000/default:%3"},
		{"TmuxCustomSocket", map[string]string{"TMUX": "/run/user/1000/tmux-1000/work,1,2", "TMUX_PANE": "%120"}, "tmux:/run/user/1000/tmux-1000/work:%120"},
		{"TmuxWithoutPane", map[string]string{"TMUX": "/tmp/tmux-1000/default,4242,0"}, ""},
		{"TmuxPaneWithoutSocket", map[string]string{"TMUX_PANE": "%3"}, ""},
		{"TmuxBadPane", map[string]string{"TMUX": "/tmp/tmux-1000/default,1,0", "TMUX_PANE": "3"}, ""},
		{"TmuxRelativeSocket", map[string]string{"TMUX": "default,1,0", "TMUX_PANE": "%3"}, ""},
		{"Screen", map[string]string{"STY": "12345.pts-0.host", "WINDOW": "2"}, "screen:12345.pts-0.host:2"},
		{"ScreenWithoutWindow", map[string]string{"STY": "12345.pts-0.host"}, ""},
		{"ScreenBadWindow", map[string]string{"STY": "12345.pts-0.host", "WINDOW": "x"}, ""},
		{"TmuxWinsOverScreen", map[string]string{"TMUX": "/tmp/t/default,1,0", "TMUX_PANE": "%1", "STY": "1.a.b", "WINDOW": "0"}, "tmux:/tmp/t/default:%1"},
		{"ScreenWhenTmuxIncomplete", map[string]string{"TMUX_PANE": "%1", "STY": "1.a.b", "WINDOW": "0"}, "screen:1.a.b:0"},
		{"Nothing", map[string]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := hooks.PaneFromEnv(envOf(tt.env))
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("PaneFromEnv = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}
