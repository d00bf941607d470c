package notify

import "testing"

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://ntfy.sh/my-topic", "https://ntfy.sh/…"},
		{"https://ntfy.sh/", "https://ntfy.sh/"},
		{"https://ntfy.sh", "https://ntfy.sh"},
		{"https://user:pw@ntfy.example.com:8443/a/b?auth=x#f", "https://…@ntfy.example.com:8443/…?…#…"},
		{"http://[::1]:8080/hook?", "http://[::1]:8080/…?…"},
		{"https://hooks.slack.com/services/T0/B0/XXXX", "https://hooks.slack.com/…"},
		{"mailto:me@example.com", "(a URL that does not parse)"},
		{"https://ntfy.sh/\x7f", "(a URL that does not parse)"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScrub(t *testing.T) {
	raw := "https://bob:s3cret@api.example.com/hooks/t0ken-123?key=abc%20def"
	for _, tc := range []struct{ in, want string }{
		{"post " + raw + ": refused", "post https://…@api.example.com/…?…: refused"},
		{"the token t0ken-123 is revoked", "the token … is revoked"},
		{"bad key abc def for bob (s3cret)", "bad key … for … (…)"},
		{"lookup api.example.com: no such host", "lookup api.example.com: no such host"},
	} {
		if got := scrub(tc.in, raw); got != tc.want {
			t.Errorf("scrub(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
