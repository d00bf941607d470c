package dash

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/jonboulle/clockwork"
)

// fps is how often the terminal is redrawn when the view changed, and so
// the most a change waits to show; the renderer wakes this often even when
// idle. 30 shows an event within about 35 ms at 0.5% of a core idle; 60
// halves the wait and costs 0.8% (BENCHMARKS.md).
const fps = 30

// Run shows the dash on the terminal until the person quits or ctx ends,
// and leaves the terminal as it found it.
func Run(ctx context.Context, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := tea.NewProgram(New(opts), tea.WithContext(ctx), tea.WithFPS(fps))
	go follow(ctx, opts.Source, clockwork.NewRealClock(), p.Send)
	_, err := p.Run()
	switch {
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil, errors.Is(err, tea.ErrInterrupted):
		return nil // ended as asked: by ctx, or by SIGINT
	}
	return err
}
