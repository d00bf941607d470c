package tmux

import "testing"

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in      string
		want    Version
		wantErr bool
	}{
		{"3.3a", Version{Major: 3, Minor: 3}, false},
		{"3.2", Version{Major: 3, Minor: 2}, false},
		{"tmux 3.4", Version{Major: 3, Minor: 4}, false},
		{"3.5-rc", Version{Major: 3, Minor: 5}, false},
		{"next-3.4", Version{Major: 3, Minor: 4}, false},
		{"master", Version{Dev: true}, false},
		{"openbsd-7.4", minVersion, false},
		{"openbsd-6.8", Version{Major: 3, Minor: 1}, false},
		{"10.0", Version{Major: 10}, false},
		{"", Version{}, true},
		{"abc", Version{}, true},
		{"3", Version{}, true},
		{"openbsd-", Version{}, true},
	}
	for _, tt := range tests {
		got, err := ParseVersion(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseVersion(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestCheckVersion(t *testing.T) {
	tests := []struct {
		in, wantErr string
	}{
		{"3.3a", ""},
		{"3.2", ""},
		{"next-3.4", ""},
		{"master", ""},
		{"openbsd-7.4", ""},
		{"3.1", "tmux 3.1 is too old: codeman needs 3.2 or newer for control-mode flow control"},
		{"3.1c", "tmux 3.1c is too old: codeman needs 3.2 or newer for control-mode flow control"},
		{"2.9a", "tmux 2.9a is too old: codeman needs 3.2 or newer for control-mode flow control"},
		{"openbsd-6.8", "tmux openbsd-6.8 is too old: codeman needs 3.2 or newer for control-mode flow control"},
		{"weird", `parse tmux version "weird": want MAJOR.MINOR such as 3.3a`},
	}
	for _, tt := range tests {
		err := CheckVersion(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.wantErr {
			t.Errorf("CheckVersion(%q) = %q, want %q", tt.in, got, tt.wantErr)
		}
	}
}

func TestVersion_Less(t *testing.T) {
	ordered := []Version{{Major: 2, Minor: 9}, {Major: 3, Minor: 1}, {Major: 3, Minor: 2}, {Major: 3, Minor: 10}, {Major: 4}, {Dev: true}}
	for i := range ordered {
		for j := range ordered {
			if got := ordered[i].Less(ordered[j]); got != (i < j) {
				t.Errorf("%+v.Less(%+v) = %v", ordered[i], ordered[j], got)
			}
		}
	}
}
