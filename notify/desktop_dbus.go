//go:build !darwin

package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/godbus/dbus/v5"
)

// The freedesktop notification service, and how its notifications name
// their sender.
const (
	appName       = "codeman"
	notifyService = "org.freedesktop.Notifications"
	notifyPath    = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyMethod  = notifyService + ".Notify"
)

// Urgency levels of the notification spec's "urgency" hint.
const (
	urgencyLow    byte = 0
	urgencyNormal byte = 1
)

// ErrNoSessionBus means there is no D-Bus session bus to show a desktop
// notification on: no desktop session, or one started without D-Bus.
var ErrNoSessionBus = errors.New("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist")

// busAddress returns the session bus's address: DBUS_SESSION_BUS_ADDRESS,
// else the socket systemd puts at $XDG_RUNTIME_DIR/bus. X11 autolaunch is
// never used: it would start a bus of its own with nobody listening.
func (d *Desktop) busAddress() (string, error) {
	if addr := d.getenv("DBUS_SESSION_BUS_ADDRESS"); addr != "" {
		return addr, nil
	}
	if dir := d.getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(dir) {
		path := filepath.Join(dir, "bus")
		if fi, err := os.Stat(path); err == nil && fi.Mode().Type() == os.ModeSocket {
			return "unix:path=" + escapeBusPath(path), nil
		}
	}
	return "", ErrNoSessionBus
}

// escapeBusPath escapes a socket path as D-Bus addresses want: bytes
// outside [-0-9A-Za-z_/.\*] as %XX.
func escapeBusPath(path string) string {
	var b strings.Builder
	for i := range len(path) {
		c := path[i]
		if c == '-' || c == '_' || c == '/' || c == '.' || c == '\\' || c == '*' ||
			'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	return b.String()
}

// Available says whether there is a session bus. Whether a notification
// server answers on it only a Send can tell.
func (d *Desktop) Available() error {
	_, err := d.busAddress()
	return err
}

// Send shows m through the session bus's notification server, on a
// connection of its own that ctx bounds.
func (d *Desktop) Send(ctx context.Context, m Message) error {
	addr, err := d.busAddress()
	if err != nil {
		return fmt.Errorf("show desktop notification: %w", err)
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("connect to the session bus: %w", err)
	}
	defer conn.Close()
	urgency := urgencyNormal
	if m.Event == EventResolved {
		urgency = urgencyLow
	}
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(urgency)}
	call := conn.Object(notifyService, notifyPath).CallWithContext(ctx, notifyMethod, 0,
		appName, uint32(0), "", m.Title, m.Text, []string{}, hints, int32(-1))
	if call.Err != nil {
		return fmt.Errorf("show desktop notification: %s: %w", notifyService, call.Err)
	}
	return nil
}
