//go:build darwin

package notify

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// osascriptProgram shows its two arguments, title then text, as a
// notification; as arguments they need no AppleScript quoting.
var osascriptProgram = []string{
	"-e", "on run argv",
	"-e", "display notification (item 2 of argv) with title (item 1 of argv)",
	"-e", "end run",
}

// Available says whether osascript can be found.
func (d *Desktop) Available() error {
	_, err := exec.LookPath("osascript")
	return err
}

// Send shows m in the Notification Center through osascript.
func (d *Desktop) Send(ctx context.Context, m Message) error {
	runCtx, cancel := context.WithTimeout(ctx, DefaultCommandTimeout)
	defer cancel()
	out, err := exec.CommandContext(runCtx, "osascript", append(osascriptProgram, m.Title, m.Text)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("show desktop notification: osascript: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
