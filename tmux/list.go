package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// The pane user options codeman keeps its state in.
const (
	// OptionEnabled marks a pane codeman controls; its value is the
	// profile name, or "on" for the defaults.
	OptionEnabled = "@codeman"
	// OptionState is the controller's state, for status lines.
	OptionState = "@codeman-state"
)

// ListedPane is a pane with codeman's options, as ListPanes reports it.
// The values come from formats, which fall back from the pane to its
// window, session and the global options: codeman only ever sets these
// two on panes.
type ListedPane struct {
	PaneInfo
	Enabled string // value of @codeman; empty when unset
	State   string // value of @codeman-state; empty when unset
}

// ListPanes returns every pane on the server with the values of @codeman
// and @codeman-state, so that a starting daemon can adopt the panes it
// controlled before. A server without sessions has no panes. A pane it
// cannot read (its program's name holds the field separator) is left out
// and named in the error, which then comes with the other panes: one
// hostile program name must not hide every pane of the server.
func (s Server) ListPanes(ctx context.Context) ([]ListedPane, error) {
	format := paneFormat("#{"+OptionEnabled+"}", "#{"+OptionState+"}")
	out, err := s.exec(ctx, nil, "list-panes", "-a", "-F", format)
	if err != nil {
		var ce *CommandError
		if errors.As(err, &ce) && ce.Message == "no current target" {
			// tmux 3.3 says so for list-panes -a on a server with no sessions.
			return nil, nil
		}
		return nil, fmt.Errorf("list panes: %w", err)
	}
	var panes []ListedPane
	var errs []error
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		p, extra, err := s.parsePaneInfo(line, 2)
		if err != nil {
			errs = append(errs, fmt.Errorf("list panes: %w", err))
			continue
		}
		panes = append(panes, ListedPane{PaneInfo: p, Enabled: extra[0], State: extra[1]})
	}
	return panes, errors.Join(errs...)
}
