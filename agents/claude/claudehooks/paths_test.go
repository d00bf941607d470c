package claudehooks

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSettingsPath(t *testing.T) {
	project := t.TempDir()
	file := filepath.Join(project, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     map[string]string
		project string
		want    string
		wantErr bool
	}{
		{"Home", map[string]string{"HOME": "/home/me"}, "", "/home/me/.claude/settings.json", false},
		{"ConfigDir", map[string]string{"HOME": "/home/me", "CLAUDE_CONFIG_DIR": "/srv/claude"}, "", "/srv/claude/settings.json", false},
		{"Project", map[string]string{"HOME": "/home/me", "CLAUDE_CONFIG_DIR": "/srv/claude"}, project, filepath.Join(project, ".claude", "settings.local.json"), false},
		{"NoHome", map[string]string{}, "", "", true},
		{"ProjectMissing", map[string]string{"HOME": "/home/me"}, filepath.Join(project, "missing"), "", true},
		{"ProjectIsAFile", map[string]string{"HOME": "/home/me"}, file, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SettingsPath(envOf(tt.env), tt.project)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("SettingsPath = %q, %v; want %q (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}
