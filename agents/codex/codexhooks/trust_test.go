package codexhooks

import "testing"

// The hashes below are the ones Codex 0.171.0 wrote into config.toml when
// its "Trust all" accepted a hooks.json whose every event ran
// /tmp/cx/hook.sh, first with the default timeouts (600 s, and 1 s for
// SessionEnd and Interrupt), then with a timeout of 10 s.
func TestHash_MatchesCodex(t *testing.T) {
	for _, tc := range []struct {
		event   string
		timeout int
		want    string
	}{
		{"Stop", 600, "sha256:0f7c4fda2031d1194b92d313e39ff0710dcf87f04ddf1cf85831f16ad6b072c4"},
		{"PreToolUse", 600, "sha256:edf92581ffca3d7f9860c86e297c59e2ed31bb9a18998fd600f34b43abee14d0"},
		{"SessionStart", 600, "sha256:8cecf542284f4c5080e5a993bc55adf7689d86fac202399ff8bd42ac29c26cec"},
		{"PostModelRequest", 600, "sha256:13f93f4f5e2ee7ef6120eadfb7545e3c74a3962d5a4ddbe3dd26524f2d6c856f"},
		{"SessionEnd", 1, "sha256:c67ee280163ecabec8b83a844b5d67e1fe9dfe2c3d7017c8bcd736e72c0b2204"},
		{"Interrupt", 1, "sha256:197e7f2ef6dd1cfd2df123a793f9210022a71450d9d17faa5c5a3185e0ef9945"},
		// A timeout of 10 s, clamped to 3 s for these two.
		{"Stop", 10, "sha256:a2963ce8525970b22625661ec5c922e8dfea4816b4c6860f63fd428848714344"},
		{"SessionEnd", 3, "sha256:de713ba2625b1bdf84bf24c7bf75d9cd8b83e3c9b0d1bd2d1c4793321172d319"},
		{"Interrupt", 3, "sha256:ccddd68a8bbffdd4aa58eb36f0cf6ac5ef74bdbe1b76cb5eda78e61982351044"},
	} {
		got, err := Hash(tc.event, "", "/tmp/cx/hook.sh", tc.timeout)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("Hash(%s, %d) = %s, want %s", tc.event, tc.timeout, got, tc.want)
		}
	}
}

func TestStateKey(t *testing.T) {
	got := StateKey("/h/.codex/hooks.json", "UserPromptSubmit", 0, 0)
	if want := "/h/.codex/hooks.json:user_prompt_submit:0:0"; got != want {
		t.Errorf("StateKey = %q, want %q", got, want)
	}
}

func TestEffectiveTimeout(t *testing.T) {
	ten := 10
	for _, tc := range []struct {
		event   string
		written *int
		want    int
	}{
		{"Stop", nil, 600}, {"Stop", &ten, 10},
		{"SessionEnd", nil, 1}, {"SessionEnd", &ten, 3}, {"Interrupt", &ten, 3},
	} {
		if got := effectiveTimeout(tc.event, tc.written); got != tc.want {
			t.Errorf("effectiveTimeout(%s, %v) = %d, want %d", tc.event, tc.written, got, tc.want)
		}
	}
}
