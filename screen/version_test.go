package screen

import (
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in    string
		want  Version
		exact bool
	}{
		{"Screen version 4.09.00 (GNU) 30-Jan-22\n", Version{4, 9}, false},
		{"Screen version 4.01.00devel (GNU) 2-May-06", Version{4, 1}, false},
		{"Screen version 4.00.03 (FAU) 23-Oct-06", Version{4, 0}, false},
		{"Screen version 5.0.1 (build on 2025-05-12 19:00:00)", Version{5, 0}, true},
	}
	for _, tt := range tests {
		got, err := ParseVersion(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if got.ExactHardcopy() != tt.exact {
			t.Errorf("%v.ExactHardcopy() = %v, want %v", got, !tt.exact, tt.exact)
		}
	}
	if _, err := ParseVersion("tmux 3.3a"); err == nil {
		t.Error("ParseVersion(tmux 3.3a) succeeded")
	}
}

func TestCheckVersion(t *testing.T) {
	if _, err := CheckVersion("Screen version 4.09.00 (GNU) 30-Jan-22"); err != nil {
		t.Errorf("4.9: %v", err)
	}
	_, err := CheckVersion("Screen version 4.00.03 (FAU) 23-Oct-06")
	if err == nil || !strings.Contains(err.Error(), "4.0 is too old") || !strings.Contains(err.Error(), "-Q") {
		t.Errorf("4.0: err = %v, want too old for -Q", err)
	}
}
