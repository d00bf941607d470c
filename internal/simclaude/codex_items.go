package simclaude

import (
	"fmt"
	"strings"
	"time"
)

// Transcript lines of the Codex look (agents/codex/testdata/screens).

const (
	codexColorEcho   = 238 // background of the prompt echo
	codexColorEchoFg = 255
	codexColorError  = 1   // the "■" line
	codexColorLimit  = 179 // the "⚠ 5h limit" row
	codexColorAccent = 75  // the header's ">_", tool verbs
	codexColorModel  = 223 // the footer's model
	codexColorDir    = 151 // the footer's directory
)

// codexEcho is a submitted prompt: "› " on a grey band one row taller
// than the text on each side; list items read "• ".
func codexEcho(prompt string) item {
	band := line{raw: bg(codexColorEcho, " ")}
	it := item{lines: []line{band}}
	for i, s := range strings.Split(strings.TrimRight(prompt, "\n"), "\n") {
		lead := "  "
		if i == 0 {
			lead = bold(dim("›")) + " "
		}
		if rest, ok := strings.CutPrefix(s, "- "); ok {
			s = "• " + rest
		}
		it.lines = append(it.lines, line{lead: lead, body: s, color: codexColorEchoFg, bgColor: codexColorEcho})
	}
	return item{lines: append(it.lines, band)}
}

// codexBullet starts a transcript cell: "• text".
func codexBullet(s string) line { return text(dim("•")+" ", 0, s) }

// codexErrorLine is "■ message" in red: an error, a limit, an interrupt.
func codexErrorLine(s string) line {
	return text(fg(codexColorError, "■")+" ", codexColorError, s)
}

// codexCompletion is the line a finished turn ends with: "Worked for 24s • 18:41".
func codexCompletion(took time.Duration, now time.Time) item {
	return item{lines: []line{raw(dim("  Worked for " + codexElapsed(took) + " • " + now.Format("15:04")))}}
}

// codexElapsed writes <1s, 24s, 1m 05s, 1h 02m 03s like Codex's timers.
func codexElapsed(d time.Duration) string {
	s := int(d / time.Second)
	switch {
	case s < 1:
		return "<1s"
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm %02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh %02dm %02ds", s/3600, s/60%60, s%60)
}

// codexStatusSeconds is the status row's counter: 0s, 41s, 1m 05s.
func codexStatusSeconds(d time.Duration) string {
	if d < time.Second {
		return "0s"
	}
	return codexElapsed(d)
}

// codexExplored is a read-only command folded the way Codex shows one.
func codexExplored(command string) item {
	return item{lines: []line{
		raw(dim("•") + " " + bold("Explored")),
		raw(dim("  └ ") + fg(codexColorAccent, "List") + " " + command),
		raw(dim("    + Show details")),
	}}
}

// codexAdded is apply_patch adding a file, with its numbered lines.
func codexAdded(path string, lines []string) item {
	it := item{lines: []line{raw(dim("•") + " " + bold("Added") + fmt.Sprintf(" %s (+%d -0)", path, len(lines)))}}
	for i, l := range lines {
		it.lines = append(it.lines, raw(fmt.Sprintf("    %d +%s", i+1, l)))
	}
	return item{lines: append(it.lines, raw(dim("    + Show details")))}
}
