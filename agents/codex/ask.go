package codex

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// selector marks the option under the selector in Codex's menus.
const selector = "›"

// readAsk reads an approval prompt's options, for a person's answer
// (respawn.Ask): what it asks is the command ("$ rm -rf …") or, for an
// edit or a permission, the prompt's title.
func (c *classifier) readAsk(title string, below []string) {
	options, selected, ok := respawn.ReadOptions(below, selector)
	if !ok {
		return
	}
	text := title
	for _, row := range below {
		if t := strings.TrimSpace(row); strings.HasPrefix(t, "$ ") {
			text = t
			break
		}
	}
	c.f.Ask = respawn.Ask{Kind: respawn.NeedPermission, Text: text, Options: options, Selected: selected}
}
