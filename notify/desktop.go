package notify

import (
	"os"
	"time"
)

// DesktopTimeout bounds one desktop notification: a session bus that
// takes the connection and never answers must not hold a send.
const DesktopTimeout = 10 * time.Second

// Desktop is the desktop channel: a notification on the person's desktop,
// over the D-Bus session bus (org.freedesktop.Notifications) on Linux and
// the BSDs, through osascript on macOS. Where it cannot be shown,
// Available and Send say why.
type Desktop struct {
	getenv func(string) string
}

var (
	_ Channel      = (*Desktop)(nil)
	_ Availability = (*Desktop)(nil)
	_ Bounded      = (*Desktop)(nil)
)

// NewDesktop returns the desktop channel, which reads the environment
// through getenv (nil: os.Getenv) each time it looks for the desktop.
func NewDesktop(getenv func(string) string) *Desktop {
	if getenv == nil {
		getenv = os.Getenv
	}
	return &Desktop{getenv: getenv}
}

// Name is "desktop".
func (d *Desktop) Name() string { return "desktop" }

// Timeout is DesktopTimeout.
func (d *Desktop) Timeout() time.Duration { return DesktopTimeout }
