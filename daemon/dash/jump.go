package dash

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// jumpPlan is how a person gets to a pane: tmux commands that switch the
// dash's client to it, or, where no command can (a GNU screen window, a
// pane of another tmux server, a dash outside tmux), a hint to show.
type jumpPlan struct {
	socket   string
	commands [][]string
	hint     string
}

// planJump plans the way to the pane at addr from client, a client of the
// tmux server at clientSocket ("" outside tmux).
func planJump(addr, client, clientSocket string) (jumpPlan, error) {
	if w, err := screen.ParseAddress(addr); err == nil {
		return jumpPlan{hint: fmt.Sprintf("a screen window: screen -r %s -p %s", w.Session, w.Window)}, nil
	}
	srv, pane, err := tmux.ParseAddress(addr)
	if err != nil {
		return jumpPlan{}, fmt.Errorf("jump to %s: %w", addr, err)
	}
	attach := fmt.Sprintf("tmux -S %s attach -t %s", srv.Socket, pane)
	switch {
	case client == "":
		return jumpPlan{hint: "not inside tmux: " + attach}, nil
	case srv.Socket != clientSocket:
		return jumpPlan{hint: "another tmux server: " + attach}, nil
	}
	// switch-client alone selects the pane's window and pane in tmux 3.x;
	// select-window and select-pane make sure of it.
	return jumpPlan{socket: srv.Socket, commands: [][]string{
		{"switch-client", "-c", client, "-t", pane},
		{"select-window", "-t", pane},
		{"select-pane", "-t", pane},
	}}, nil
}

// jump takes the dash's client to the pane of r, or says how to get there.
func (m *Model) jump(r *row) tea.Cmd {
	plan, err := planJump(r.st.Pane, m.opts.Client, m.opts.ClientSocket)
	if err != nil {
		m.message, m.isError = err.Error(), true
		return nil
	}
	if plan.commands == nil {
		m.say(plan.hint)
		return nil
	}
	run, label, quit := m.opts.Tmux, r.label, m.opts.QuitAfterJump
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		for _, args := range plan.commands {
			if err := run(ctx, plan.socket, args...); err != nil {
				return doneMsg{err: fmt.Errorf("jump to %s: %w", label, err)}
			}
		}
		return doneMsg{text: "jumped to " + label, quit: quit}
	}
}
