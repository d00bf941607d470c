package notify

import (
	"encoding/base64"
	"testing"
)

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

// What a server echoes of the request (its Authorization header, the
// ntfy ?auth= token decoded) and credentials of other URLs it quotes are
// hidden too.
func TestScrub_Credentials(t *testing.T) {
	raw := "https://bob:s3cret@ntfy.example.com/topic-9?auth=" + ntfyAuth
	for _, tc := range []struct{ in, want string }{
		{"401: you sent Authorization: Basic Ym9iOnMzY3JldA==", "401: you sent Authorization: Basic …"},
		{`{"headers":{"Authorization":"Basic Ym9iOnMzY3JldA=="}}`, `{"headers":{"Authorization":"…"}}`},
		{"bad credentials Basic Ym9iOnMzY3JldA", "bad credentials Basic …"},
		{"auth header was Basic " + ntfyBasic + " (from ?auth)", "auth header was Basic … (from ?auth)"},
		{"proxy-authorization: Bearer tk_abcdefgh12345", "proxy-authorization: Bearer …"},
		{"expired: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x", "expired: Bearer …"},
		{"see https://eve:hunter2@other.example/x?token=t0k&user=eve&api_key=K3Y", "see https://…@other.example/x?token=…&user=eve&api_key=…"},
		{`{"access_token": "abc\"def", "name": "x"}`, `{"access_token": "…", "name": "x"}`},
		{"Basic authentication failed for bearer tokens", "Basic authentication failed for bearer tokens"},
		{"lookup ntfy.example.com: no such host", "lookup ntfy.example.com: no such host"},
	} {
		if got := scrub(tc.in, raw); got != tc.want {
			t.Errorf("scrub(%q)\n= %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// ntfy's ?auth= is the Authorization header's value in raw URL base64.
var (
	ntfyBasic = base64.StdEncoding.EncodeToString([]byte("bob:s3cret"))
	ntfyAuth  = base64.RawURLEncoding.EncodeToString([]byte("Basic " + ntfyBasic))
)

func TestMask(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://ntfy.sh/my-topic", "https://ntfy.sh/…"},
		{"https://ntfy.sh/", "https://ntfy.sh/"},
		{"https://ntfy.sh", "https://ntfy.sh"},
		{"https://bob:s3cret@ntfy.example.com:8443/a/b?auth=x&priority=high#f", "https://bob:…@ntfy.example.com:8443/…?auth=…&priority=high#…"},
		{"https://ghp_T0ken@example.com/hook", "https://…@example.com/…"},
		{"https://hooks.example.com/x?api_key=K&Signature=S&id=7&t=a1b2c3d4e5f6g7h8i9", "https://hooks.example.com/…?api_key=…&Signature=…&id=7&t=…"},
		{"http://[::1]:8080/hook?", "http://[::1]:8080/…?"},
		{"https://ntfy.sh/\x7f", "(a URL that does not parse)"},
		{"", ""},
	} {
		if got := Mask(tc.in); got != tc.want {
			t.Errorf("Mask(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
