package dash

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/jonboulle/clockwork"
)

// fps bounds the redraws a second: the rows change at most ten times a
// second (flushEvery), and an idle dash should cost nothing.
const fps = 20

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
