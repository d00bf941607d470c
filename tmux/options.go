package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// SetPaneOption sets a pane user option (name starts with '@') on paneID.
func (s Server) SetPaneOption(ctx context.Context, paneID, name, value string) error {
	if err := checkOptionTarget(paneID, name); err != nil {
		return err
	}
	// The value follows the option name, so tmux reads it as a plain
	// argument even when it starts with '-'.
	if _, err := s.Run(ctx, "set-option", "-p", "-t", paneID, name, value); err != nil {
		return fmt.Errorf("set %s on pane %s: %w", name, paneID, err)
	}
	return nil
}

// UnsetPaneOption removes a pane user option from paneID. Removing an
// option that is not set is not an error.
func (s Server) UnsetPaneOption(ctx context.Context, paneID, name string) error {
	if err := checkOptionTarget(paneID, name); err != nil {
		return err
	}
	if _, err := s.Run(ctx, "set-option", "-p", "-u", "-t", paneID, name); err != nil {
		return fmt.Errorf("unset %s on pane %s: %w", name, paneID, err)
	}
	return nil
}

// PaneOption returns the value of a pane user option set on paneID itself
// (not inherited) and whether it is set.
func (s Server) PaneOption(ctx context.Context, paneID, name string) (string, bool, error) {
	if err := checkOptionTarget(paneID, name); err != nil {
		return "", false, err
	}
	// Without -q, so that a wrong pane is an error; tmux 3.3 answers an
	// unset user option with "invalid option: @name". An option set to ""
	// prints an empty line, so the newline tells the two apart.
	out, err := s.Run(ctx, "show-options", "-p", "-v", "-t", paneID, name)
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
	return strings.TrimSuffix(out, "\n"), true, nil
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
