package notify

import (
	"net/url"
	"slices"
	"strings"
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
	b.WriteString(u.Host)
	switch u.Path {
	case "":
	case "/":
		b.WriteString("/")
	default:
		b.WriteString("/…")
	}
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?…")
	}
	if u.Fragment != "" {
		b.WriteString("#…")
	}
	return b.String()
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
		found = append(found, u.User.String(), u.User.Username(), pw)
	}
	for _, values := range u.Query() {
		found = append(found, values...)
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
	return strings.NewReplacer(pairs...).Replace(text)
}
