package dash

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/codeman-dev/codeman/tmux"
)

// Here is where the dash runs, as its environment says: the tmux server
// and pane it runs in, or why it runs outside tmux. Which client shows the
// dash is asked at each Enter, not here: a dash started in a session that
// no client is attached to (tmux new-session -d, a script) is seen once
// one attaches, and a person may move its pane to another window.
type Here struct {
	// Socket is the canonical socket of the dash's tmux server; "" outside
	// tmux.
	Socket string
	// Pane is the dash's pane ($TMUX_PANE); "" in a popup, which has none.
	Pane string
	// Session is the dash's session ($TMUX), which a popup's client shows.
	Session string
	// Outside says why the dash is not inside tmux, when Socket is "".
	Outside string
}

// Locate reads where the dash runs from its environment; it runs no tmux
// command.
func Locate(getenv func(string) string) (Here, error) {
	env := getenv("TMUX")
	switch {
	case env == "" && getenv("STY") != "":
		return Here{Outside: "inside GNU screen ($STY is set), not tmux"}, nil
	case env == "":
		return Here{Outside: "not inside tmux ($TMUX is not set)"}, nil
	}
	srv, err := tmux.ServerFromEnv(env)
	if err != nil {
		return Here{}, err
	}
	if srv, err = srv.Canonical(); err != nil {
		return Here{}, fmt.Errorf("read TMUX %q: %w", env, err)
	}
	h := Here{Socket: srv.Socket, Pane: getenv("TMUX_PANE")}
	// $TMUX is socket,server pid,session id (without its $).
	if f := strings.Split(env, ","); len(f) == 3 {
		h.Session = "$" + f[2]
	}
	return h, nil
}

// client finds the client through which a person sees the dash now: of
// the clients not in control mode (the daemon's own are among them), the
// one used last of those that show the dash's window, else of those
// attached to its session. It is "" when no client shows the dash.
func (h Here) client(ctx context.Context, run func(ctx context.Context, socket string, args ...string) (string, error)) (string, error) {
	window, session := "", h.Session
	if h.Pane != "" {
		out, err := run(ctx, h.Socket, "display-message", "-p", "-t", h.Pane, "#{window_id}\t#{session_id}")
		if err != nil {
			return "", fmt.Errorf("find the dash's pane %s: %w", h.Pane, err)
		}
		window, session, _ = strings.Cut(strings.TrimSpace(out), "\t")
	}
	out, err := run(ctx, h.Socket, "list-clients", "-F", "#{client_control_mode}\t#{client_activity}\t#{window_id}\t#{session_id}\t#{client_name}")
	if err != nil {
		return "", fmt.Errorf("list the clients of tmux server %s: %w", h.Socket, err)
	}
	return pickClient(out, window, session), nil
}

// pickClient chooses from list-clients lines (control mode, activity,
// window id, session id, name) the client used last of those that show
// window, else of those attached to session, never one in control mode.
func pickClient(list, window, session string) string {
	var names [2]string // 0: shows the window; 1: attached to the session
	activity := [2]int64{-1, -1}
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		f := strings.SplitN(line, "\t", 5)
		if len(f) != 5 || f[0] == "1" {
			continue
		}
		i := 1
		switch {
		case window != "" && f[2] == window:
			i = 0
		case f[3] != session:
			continue
		}
		if a, _ := strconv.ParseInt(f[1], 10, 64); a > activity[i] {
			names[i], activity[i] = f[4], a
		}
	}
	if names[0] != "" {
		return names[0]
	}
	return names[1]
}
