package screen

import (
	"context"
	"strings"

	"github.com/codeman-dev/codeman/internal/safetext"
)

// Notice shows text on the message line of every display attached to the
// window's session (screen's echo), as it is. screen parses a command's
// argument as a line of its own config: \ and ^ start escapes, and $NAME,
// ${NAME} and $:cap: expand from screen's environment (a prompt quoting
// "${SECRET_TOKEN}" would show the secret), so all three are escaped; it
// quotes the argument itself, escaping its ". screen has no bell to ring
// on demand.
func Notice(ctx context.Context, r Runner, w Window, text string) error {
	return send(ctx, r, w, "echo", echoEscaper.Replace(safetext.Line(text)))
}

var echoEscaper = strings.NewReplacer(`\`, `\\`, "^", `\^`, "$", `\$`)
