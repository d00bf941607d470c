package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// SetPaneOption sets a pane user option (name starts with '@') on paneID.
func (s Server) SetPaneOption(ctx context.Context, paneID, name, value string) error {
	return SetPaneOptionWith(ctx, s, paneID, name, value)
}

// SetPaneOptionWith is SetPaneOption through a Runner, such as a Client's
// control connection.
func SetPaneOptionWith(ctx context.Context, r Runner, paneID, name, value string) error {
	if err := checkOptionTarget(paneID, name); err != nil {
		return err
	}
	// The value follows the option name, so tmux reads it as a plain
	// argument even when it starts with '-'.
	if _, err := r.Run(ctx, "set-option", "-p", "-t", paneID, name, value); err != nil {
		return fmt.Errorf("set %s on pane %s: %w", name, paneID, err)
	}
	return nil
}

// UnsetPaneOption removes a pane user option from paneID. Removing an
// option that is not set is not an error.
func (s Server) UnsetPaneOption(ctx context.Context, paneID, name string) error {
	return UnsetPaneOptionWith(ctx, s, paneID, name)
}

// UnsetPaneOptionWith is UnsetPaneOption through a Runner.
func UnsetPaneOptionWith(ctx context.Context, r Runner, paneID, name string) error {
	if err := checkOptionTarget(paneID, name); err != nil {
		return err
	}
	if _, err := r.Run(ctx, "set-option", "-p", "-u", "-t", paneID, name); err != nil {
		return fmt.Errorf("unset %s on pane %s: %w", name, paneID, err)
	}
	return nil
}

// PaneOption returns the value of a pane user option set on paneID itself
// (not inherited) and whether it is set.
func (s Server) PaneOption(ctx context.Context, paneID, name string) (string, bool, error) {
	return ReadPaneOption(ctx, s, paneID, name)
}

// ReadPaneOption is PaneOption through a Runner, such as a Client's
// control connection.
func ReadPaneOption(ctx context.Context, r Runner, paneID, name string) (string, bool, error) {
	if err := checkOptionTarget(paneID, name); err != nil {
		return "", false, err
	}
	// Without -q, so that a wrong pane is an error; tmux 3.3 answers an
	// unset user option with "invalid option: @name". An option set to ""
	// prints an empty line, so the newline tells the two apart.
	out, err := r.Run(ctx, "show-options", "-p", "-v", "-t", paneID, name)
	var ce *CommandError
	if errors.As(err, &ce) && ce.Message == "invalid option: "+name {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s of pane %s: %w", name, paneID, err)
	}
	if out == "" {
		return "", false, nil
	}
	value, err := unescapeFor(ctx, r, strings.TrimSuffix(out, "\n"))
	if err != nil {
		return "", false, fmt.Errorf("read %s of pane %s: %w", name, paneID, err)
	}
	return value, true, nil
}

// SwapPaneOption sets a pane user option to value if it holds old now,
// in one tmux command: tmux runs the commands of one client in turn, so no
// other client's command comes between the test and the set. An empty old
// means unset; an empty value unsets. It reports whether the option holds
// value afterwards. Both values must be plain words (letters, digits, '-',
// '_', '.').
func (s Server) SwapPaneOption(ctx context.Context, paneID, name, old, value string) (bool, error) {
	return SwapPaneOptionWith(ctx, s, paneID, name, old, value)
}

// SwapPaneOptionWith is SwapPaneOption through a Runner. A swap from unset
// is one set-option -o, which sets only an option the pane does not have
// yet; any other runs if-shell, which a Client runs as a tmux process (see
// Client.Run).
func SwapPaneOptionWith(ctx context.Context, r Runner, paneID, name, old, value string) (bool, error) {
	if err := checkOptionTarget(paneID, name); err != nil {
		return false, err
	}
	if !plainWord(old) || !plainWord(value) {
		return false, fmt.Errorf("swap %s on pane %s: values %q and %q must be plain words", name, paneID, old, value)
	}
	if old == "" && value != "" {
		_, err := r.Run(ctx, "set-option", "-o", "-p", "-t", paneID, name, value)
		var ce *CommandError
		if err != nil && !(errors.As(err, &ce) && ce.Message == "already set: "+name) {
			return false, fmt.Errorf("swap %s on pane %s: %w", name, paneID, err)
		}
		if err == nil {
			return true, nil
		}
		now, _, err := ReadPaneOption(ctx, r, paneID, name)
		if err != nil || now != "" {
			return now == value, err
		}
		// Set to "", which a swap from unset takes as unset too.
	}
	cond := "#{==:#{" + name + "}," + old + "}"
	set := "set-option -p -t " + paneID + " " + name + " " + value
	if value == "" {
		set = "set-option -p -u -t " + paneID + " " + name
	}
	if _, err := r.Run(ctx, "if-shell", "-F", "-t", paneID, cond, set); err != nil {
		return false, fmt.Errorf("swap %s on pane %s: %w", name, paneID, err)
	}
	now, _, err := ReadPaneOption(ctx, r, paneID, name)
	if err != nil {
		return false, err
	}
	return now == value, nil
}

// plainWord reports whether s needs no quoting in a tmux command or format.
func plainWord(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// checkOptionTarget rejects what these helpers are not for: targets other
// than pane ids, and tmux's own options.
func checkOptionTarget(paneID, name string) error {
	if !validPaneID([]byte(paneID)) {
		return fmt.Errorf("pane option %s: target %q is not a pane id such as %%3", name, paneID)
	}
	if len(name) < 2 || name[0] != '@' {
		return fmt.Errorf("pane option %q on %s: user option names start with @", name, paneID)
	}
	return nil
}
