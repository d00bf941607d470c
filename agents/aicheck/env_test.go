package aicheck

import (
	"slices"
	"testing"
)

func TestChildEnv(t *testing.T) {
	tests := []struct {
		name      string
		base      []string
		claudeDir string
		want      []string
	}{
		{
			name: "DropsPaneMarkers",
			base: []string{
				"HOME=/home/dev", "PATH=/usr/bin", "TMUX=/tmp/tmux-1000/default,1,0", "TMUX_PANE=%3",
				"STY=1.pts-0.host", "WINDOW=2", "CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli",
				"CLAUDE_CODE_SSE_PORT=4242", "CLAUDE_CODE_CHILD_SESSION=1", "CLAUDE_PROJECT_DIR=/p",
				"CLAUDE_ENV_FILE=/e", "CODEMAN_CHECK=0", "CODEMAN_PANE=%3",
				"ANTHROPIC_API_KEY=k", "CLAUDE_CODE_OAUTH_TOKEN=t", "CLAUDE_CONFIG_DIR=/c", "LANG=C.UTF-8",
			},
			claudeDir: "/usr/bin",
			want: []string{
				"HOME=/home/dev", "PATH=/usr/bin", "ANTHROPIC_API_KEY=k", "CLAUDE_CODE_OAUTH_TOKEN=t",
				"CLAUDE_CONFIG_DIR=/c", "LANG=C.UTF-8", "CODEMAN_CHECK=1",
			},
		},
		{
			name:      "PrependsClaudeDir",
			base:      []string{"PATH=/usr/bin:/bin"},
			claudeDir: "/home/dev/.nvm/versions/node/v22/bin",
			want:      []string{"PATH=/home/dev/.nvm/versions/node/v22/bin:/usr/bin:/bin", "CODEMAN_CHECK=1"},
		},
		{
			name:      "KeepsClaudeDirInPlace",
			base:      []string{"PATH=/usr/bin:/opt/claude/bin"},
			claudeDir: "/opt/claude/bin",
			want:      []string{"PATH=/usr/bin:/opt/claude/bin", "CODEMAN_CHECK=1"},
		},
		{
			name:      "AddsPath",
			base:      []string{"HOME=/root", "NOEQUALS"},
			claudeDir: "/opt/claude/bin",
			want:      []string{"HOME=/root", "NOEQUALS", "PATH=/opt/claude/bin", "CODEMAN_CHECK=1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := childEnv(tt.base, tt.claudeDir); !slices.Equal(got, tt.want) {
				t.Errorf("childEnv =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestEnvValue(t *testing.T) {
	env := []string{"PATH=/a", "X", "PATH=/b", "PATHX=/c"}
	if got := envValue(env, "PATH"); got != "/b" {
		t.Errorf("envValue = %q, want the last PATH", got)
	}
	if got := envValue(env, "HOME"); got != "" {
		t.Errorf("envValue of a missing name = %q", got)
	}
}
