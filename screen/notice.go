package screen

import (
	"context"
	"strings"
)

// Notice shows text on the message line of every display attached to the
// window's session (screen's echo), as it is: screen reads \ and ^ in a
// command's argument as escapes, so they are escaped. screen has no bell
// to ring on demand.
func Notice(ctx context.Context, r Runner, w Window, text string) error {
	return send(ctx, r, w, "echo", echoEscaper.Replace(oneLine(text)))
}

var echoEscaper = strings.NewReplacer(`\`, `\\`, "^", `\^`)

// oneLine makes text fit the message line: control characters become
// spaces.
func oneLine(text string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, text)
}
