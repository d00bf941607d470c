package simclaude

import (
	"strconv"
	"strings"
)

// xterm-256 colours of the real screens (from capture-pane -e).
const (
	colorLogo      = 174 // logo, spinner glyph and verb
	colorShimmer   = 216 // the bright window moving over the spinner verb
	colorLogoBg    = 16
	colorDim       = 246 // footers, tips, completion line, option numbers
	colorBorder    = 244 // prompt box rules
	colorText      = 231 // assistant bullet and prompt echo text
	colorError     = 220 // API error bullet and text, auto mode label
	colorAccent    = 153 // dialogs: rule, title, highlighted option
	colorPlanRule  = 73
	colorFaint     = 239 // dashed rules around commands and plans
	colorPromptBg  = 237 // background of the prompt echo
	colorToolOK    = 114 // bullet of a finished tool call
	colorLimit     = 211 // usage-limit line
	colorAcceptOn  = 177 // accept edits label
	colorPlanModeF = 73  // plan mode label
)

func fg(color int, s string) string {
	return "\x1b[38;5;" + strconv.Itoa(color) + "m" + s + "\x1b[39m"
}

func bg(color int, s string) string {
	return "\x1b[48;5;" + strconv.Itoa(color) + "m" + s + "\x1b[49m"
}

func bold(s string) string    { return "\x1b[1m" + s + "\x1b[22m" }
func dim(s string) string     { return "\x1b[2m" + s + "\x1b[22m" }
func reverse(s string) string { return "\x1b[7m" + s + "\x1b[27m" }

// emphasis is the bold italic underline of a plan's title.
func emphasis(s string) string { return "\x1b[1;3;4m" + s + "\x1b[0m" }

// rule repeats a box-drawing character n times.
func rule(ch string, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(ch, n)
}
