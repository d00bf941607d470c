package notify

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redact shows a URL without its secrets: the scheme and the host are
// kept, and userinfo, a path beyond "/", the query and the fragment each
// become "…". An ntfy topic is its own password, and webhook URLs carry
// their tokens in any of those parts. A URL that does not parse shows as
// "(a URL that does not parse)".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return "(a URL that does not parse)"
	}
	var b strings.Builder
	if u.Scheme != "" {
		b.WriteString(u.Scheme + "://")
	}
	if u.User != nil {
		b.WriteString("…@")
	}
	b.WriteString(u.Host + redactPath(u.Path))
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?…")
	}
	if u.Fragment != "" {
		b.WriteString("#…")
	}
	return b.String()
}

// redactPath hides a URL's path beyond "/": an ntfy topic, a Slack or
// Discord token.
func redactPath(path string) string {
	switch path {
	case "", "/":
		return path
	}
	return "/…"
}

// minSecret is the shortest secret scrub looks for: shorter strings are
// no secret, and replacing them would garble the text.
const minSecret = 3

// secrets returns the parts of a URL that Redact hides, as they may appear
// in an error's text (escaped or not, whole or piece by piece), the
// longest first.
func secrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return []string{raw}
	}
	found := []string{u.Path, u.EscapedPath(), u.RawQuery, u.Fragment, u.EscapedFragment()}
	found = append(found, strings.Split(u.Path, "/")...)
	if u.User != nil {
		pw, _ := u.User.Password()
		// The client sends the userinfo as Basic auth, which a server
		// may echo.
		basic := base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pw))
		found = append(found, u.User.String(), u.User.Username(), pw, basic)
	}
	for _, values := range u.Query() {
		for _, v := range values {
			found = append(found, v)
			found = append(found, decoded(v)...)
		}
	}
	// The host is shown anyway: what it contains is no secret, and
	// keeping it keeps the host readable in a dial error.
	found = slices.DeleteFunc(found, func(s string) bool { return len(s) < minSecret || strings.Contains(u.Host, s) })
	slices.SortFunc(found, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(found)
}

// scrub hides a URL's secrets in text: the URL itself becomes its Redact
// form, and any of its secret parts elsewhere becomes "…".
func scrub(text, raw string) string {
	red := Redact(raw)
	pairs := []string{raw, red}
	if u, err := url.Parse(raw); err == nil {
		pairs = append(pairs, u.String(), red)
	}
	for _, s := range secrets(raw) {
		pairs = append(pairs, s, "…")
	}
	// One pass, trying the pairs in order at each position: the whole URL
	// before its parts.
	return scrubCredentials(strings.NewReplacer(pairs...).Replace(text))
}

// decoded returns what a query value holds when it is base64, as ntfy's
// ?auth= is (an Authorization header's value), with the token inside and
// a Basic token's user and password: a server may quote any of them.
func decoded(v string) []string {
	for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.StdEncoding} {
		b, err := enc.DecodeString(v)
		if err != nil || !printable(string(b)) {
			continue
		}
		scheme, token, ok := strings.Cut(string(b), " ")
		if !ok {
			return []string{string(b)}
		}
		found := []string{token} // the scheme is no secret, and names what was hidden
		if strings.EqualFold(scheme, "basic") {
			if pair, err := base64.StdEncoding.DecodeString(token); err == nil && printable(string(pair)) {
				user, pw, _ := strings.Cut(string(pair), ":")
				found = append(found, string(pair), user, pw)
			}
		}
		return found
	}
	return nil
}

func printable(s string) bool {
	return s != "" && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) })
}

// secretName matches the names of query parameters, form fields and JSON
// keys whose values are secrets.
const secretName = `[a-z0-9_.-]*(?:auth|token|key|secret|pass|pwd|sig|cred|session)[a-z0-9_.-]*`

// Credentials that scrubCredentials hides wherever they are, whoever's
// they are.
var (
	// Authorization: Basic dXNlcjpwdw==, "authorization":"Bearer x".
	authHeader = regexp.MustCompile(`(?i)\b((?:proxy-)?authorization"?\s*[:=]\s*"?(?:(?:basic|bearer|digest|token|negotiate)\s+)?)[^\s",;&]+`)
	// Basic or Bearer and a token, outside a header.
	authToken = regexp.MustCompile(`(?i)\b((?:basic|bearer)\s+)([a-z0-9+/_.~-]{8,}=*)`)
	// https://user:pw@host
	userinfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@"'<>]+@`)
	// ?auth=x, &token=x, api_key=x
	secretValue = regexp.MustCompile(`(?i)\b(` + secretName + `)=[^&\s"'#<>;,]+`)
	// "token": "x"
	secretJSON = regexp.MustCompile(`(?i)("` + secretName + `"\s*:\s*")(?:[^"\\]|\\.)*"`)
)

// scrubCredentials hides the credentials in text that are not the URL's
// own (scrub hides those): what a server echoes of a request, or quotes
// of another, is shown to a person and kept in logs.
func scrubCredentials(text string) string {
	text = authHeader.ReplaceAllString(text, "${1}…")
	text = authToken.ReplaceAllStringFunc(text, func(m string) string {
		sub := authToken.FindStringSubmatch(m)
		if !strings.ContainsAny(sub[2], "0123456789+/=") {
			return m // a word, as in "Basic authentication failed"
		}
		return sub[1] + "…"
	})
	text = userinfo.ReplaceAllString(text, "${1}…@")
	text = secretValue.ReplaceAllString(text, "${1}=…")
	return secretJSON.ReplaceAllString(text, `${1}…"`)
}

// Mask shows a URL with its shape but without its secrets, for a person
// checking what the config says: the userinfo's password (its user name
// when it has no password), the path beyond "/" and the fragment each
// become "…", and so does the value of each query parameter named like a
// secret (auth, token, key, ...) or that looks like a token. Other
// parameters show as written. A URL that does not parse shows as Redact
// shows it.
func Mask(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || raw == "" {
		return Redact(raw)
	}
	var b strings.Builder
	if u.Scheme != "" {
		b.WriteString(u.Scheme + "://")
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			b.WriteString(url.PathEscape(u.User.Username()) + ":…@")
		} else {
			b.WriteString("…@")
		}
	}
	b.WriteString(u.Host + redactPath(u.Path))
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?" + maskQuery(u.RawQuery))
	}
	if u.Fragment != "" {
		b.WriteString("#…")
	}
	return b.String()
}

// secretParam matches a whole parameter name that says its value is a
// secret.
var secretParam = regexp.MustCompile(`(?i)^` + secretName + `$`)

// maskQuery hides the secret values of a raw query, keeping its names and
// order.
func maskQuery(raw string) string {
	params := strings.Split(raw, "&")
	for i, p := range params {
		name, value, ok := strings.Cut(p, "=")
		if !ok || value == "" {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil && secretParam.MatchString(n) || tokenLike(value) {
			params[i] = name + "=…"
		}
	}
	return strings.Join(params, "&")
}

// tokenLike reports whether a value looks generated: long, with letters
// and digits.
func tokenLike(v string) bool {
	return len(v) >= 16 && strings.ContainsAny(v, "0123456789") && strings.ContainsFunc(v, unicode.IsLetter)
}
