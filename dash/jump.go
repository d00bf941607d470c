package dash

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// jumpPlan is how a person gets to a pane: a pane of the dash's own tmux
// server, which tmux commands bring to the dash's client, or, where no
// command can (a GNU screen window, a pane of another tmux server, a dash
// outside tmux), a hint to show.
type jumpPlan struct {
	socket string // the dash's server
	pane   string // the pane's id on it
	hint   string
}

// planJump plans the way to the pane at addr from a dash that runs here.
func planJump(addr string, here Here) (jumpPlan, error) {
	if w, err := screen.ParseAddress(addr); err == nil {
		return jumpPlan{hint: fmt.Sprintf("a screen window: screen -r %s -p %s", w.Session, w.Window)}, nil
	}
	srv, pane, err := tmux.ParseAddress(addr)
	if err != nil {
		return jumpPlan{}, fmt.Errorf("jump to %s: %w", addr, err)
	}
	attach := fmt.Sprintf("tmux -S %s attach -t %s", srv.Socket, pane)
	switch {
	case here.Socket == "":
		return jumpPlan{hint: here.Outside + ": " + attach}, nil
	case srv.Socket != here.Socket:
		return jumpPlan{hint: "another tmux server: " + attach}, nil
	}
	return jumpPlan{socket: srv.Socket, pane: pane}, nil
}

// commands bring the pane to client. switch-client alone selects the
// pane's window and pane in tmux 3.x; select-window and select-pane make
// sure of it, and are all there is when no client shows the dash: the
// pane is then what its session shows the next client that attaches.
func (p jumpPlan) commands(client string) [][]string {
	cmds := [][]string{{"select-window", "-t", p.pane}, {"select-pane", "-t", p.pane}}
	if client == "" {
		return cmds
	}
	return append([][]string{{"switch-client", "-c", client, "-t", p.pane}}, cmds...)
}

// jump takes the dash's client to the pane of r, or says how to get there.
func (m *Model) jump(r *row) tea.Cmd {
	plan, err := planJump(r.st.Pane, m.opts.Here)
	if err != nil {
		m.message, m.isError = err.Error(), true
		return nil
	}
	if plan.hint != "" {
		m.say(plan.hint)
		return nil
	}
	run, label, quit, client, here := m.opts.Tmux, r.label, m.opts.QuitAfterJump, m.opts.Client, m.opts.Here
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		if client == "" {
			var err error
			if client, err = here.client(ctx, run); err != nil {
				return doneMsg{err: fmt.Errorf("jump to %s: %w", label, err)}
			}
		}
		for _, args := range plan.commands(client) {
			if _, err := run(ctx, plan.socket, args...); err != nil {
				return doneMsg{err: fmt.Errorf("jump to %s: %w", label, err)}
			}
		}
		if client == "" {
			return doneMsg{text: "no tmux client showed the dash, so none was switched: " + label + " is selected in its session"}
		}
		return doneMsg{text: "jumped to " + label, quit: quit}
	}
}
