package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/internal/safetext"
)

// OptionNeeds is the window option codeman sets while a pane of the window
// needs a person: the kinds, comma-separated. A window-status-format can
// highlight the window with it.
const OptionNeeds = "@codeman-needs"

// noticeDuration is how long a notice stays on a client's status line.
const noticeDuration = 10 * time.Second

// SetWindowNeeds sets the window option OptionNeeds of the window that
// holds paneID; an empty value removes it.
func SetWindowNeeds(ctx context.Context, r Runner, paneID, value string) error {
	if err := checkOptionTarget(paneID, OptionNeeds); err != nil {
		return err
	}
	args := []string{"set-option", "-w", "-t", paneID, OptionNeeds, value}
	if value == "" {
		args = []string{"set-option", "-w", "-u", "-t", paneID, OptionNeeds}
	}
	if _, err := r.Run(ctx, args...); err != nil {
		return fmt.Errorf("set %s on the window of pane %s: %w", OptionNeeds, paneID, err)
	}
	return nil
}

// AttachedClient is a tmux client attached to a session.
type AttachedClient struct {
	Name string // client_name, for display-message -c
	TTY  string // client_tty
}

// SessionClients lists the clients attached to the session that holds
// paneID, but control-mode clients (codeman's own among them): nobody
// reads their status line.
func SessionClients(ctx context.Context, r Runner, paneID string) ([]AttachedClient, error) {
	out, err := r.Run(ctx, "list-clients", "-t", paneID, "-F", "#{client_name}\t#{client_tty}\t#{client_control_mode}")
	if err != nil {
		return nil, fmt.Errorf("list the clients of pane %s: %w", paneID, err)
	}
	var cs []AttachedClient
	for line := range strings.SplitSeq(strings.TrimRight(out, "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 && f[0] != "" && f[2] != "1" {
			cs = append(cs, AttachedClient{Name: f[0], TTY: f[1]})
		}
	}
	return cs, nil
}

// Notice shows text on the status line of every client attached to the
// session of paneID, as it is (formatLiteral). With bell, each client's terminal
// also rings. It returns the number of clients told; none is no error.
func Notice(ctx context.Context, r Runner, paneID, text string, bell bool) (int, error) {
	clients, err := SessionClients(ctx, r, paneID)
	if err != nil {
		return 0, err
	}
	if len(clients) == 0 {
		return 0, nil
	}
	v, err := runnerVersion(ctx, r)
	if err != nil {
		return 0, err
	}
	if v.Less(firstClientMessage) {
		return 0, errors.Join(ErrNoticeUnsupported, ringBells(clients, bell))
	}
	literal := formatLiteral(safetext.Line(text))
	var errs []error
	told := 0
	for _, c := range clients {
		if _, err := r.Run(ctx, "display-message", "-c", c.Name, "-t", paneID, "-d", fmt.Sprint(noticeDuration.Milliseconds()), literal); err != nil {
			errs = append(errs, fmt.Errorf("show a notice to client %s: %w", c.Name, err))
			continue
		}
		told++
		if bell {
			if err := ringBell(c.TTY); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return told, errors.Join(errs...)
}

// firstClientMessage is the first tmux whose display-message shows a
// message to the client -c names: tmux 3.2 declares -c without an argument
// ("acd:INpt:F:v"), so `-c NAME` is a usage error there.
var firstClientMessage = Version{Major: 3, Minor: 3}

// ErrNoticeUnsupported says that the server cannot show a notice on one
// client's status line; Notice still rang the bells.
var ErrNoticeUnsupported = errors.New("tmux 3.2 cannot show a message on one client's status line (display-message -c takes a client from 3.3 on): the bell and the window's @codeman-needs option are the notice")

// ringBells rings the bell of each client when bell is set.
func ringBells(clients []AttachedClient, bell bool) error {
	if !bell {
		return nil
	}
	var errs []error
	for _, c := range clients {
		errs = append(errs, ringBell(c.TTY))
	}
	return errors.Join(errs...)
}

// ringBell writes BEL to a client's terminal, as tmux's own bell does. It
// never blocks: a terminal that cannot take the byte now misses the bell.
func ringBell(tty string) error {
	if !strings.HasPrefix(tty, "/dev/") {
		return fmt.Errorf("ring the bell of %q: not a terminal device", tty)
	}
	f, err := os.OpenFile(tty, os.O_WRONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("ring the bell of %s: %w", tty, err)
	}
	defer f.Close()
	if _, err := f.Write([]byte{'\a'}); err != nil {
		return fmt.Errorf("ring the bell of %s: %w", tty, err)
	}
	return nil
}

// formatLiteral escapes text so that display-message shows it as it is.
// tmux reads a message as a format: it expands strftime's % sequences,
// then #{...} and the like, where ## gives #, but keeps a run of # before
// a [; then it draws #[...] styles, where ## gives # again. So % is
// doubled, a run of # before [ is doubled and any other # quadrupled.
func formatLiteral(text string) string {
	var b strings.Builder
	hashes := 0
	flush := func(before byte) {
		n := 4
		if before == '[' {
			n = 2
		}
		b.WriteString(strings.Repeat("#", hashes*n))
		hashes = 0
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '#':
			hashes++
		case '%':
			flush(c)
			b.WriteString("%%")
		default:
			flush(c)
			b.WriteByte(c)
		}
	}
	flush(0)
	return b.String()
}
