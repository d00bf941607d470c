package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// A program codeman drives that is missing or unusable is a note or a
// warning, unless an enabled pane needs it: then it is an error.
func needVerdict(panes int, otherwise Verdict) Verdict {
	if panes > 0 {
		return VerdictError
	}
	return otherwise
}

// neededBy says how many enabled panes need a program: one is a pane of
// that kind, many are panes of it.
func neededBy(panes int, one, many string) string {
	switch panes {
	case 0:
		return "needed only to control " + many
	case 1:
		return "an enabled pane is a " + one
	}
	return fmt.Sprintf("%d enabled panes are %s", panes, many)
}

// checkTmux checks the tmux on PATH, and the version of each tmux server
// that has an enabled pane or that doctor runs in (a server started before
// an upgrade runs the old tmux), and that codeman can read its panes.
func (d *Doctor) checkTmux(ctx context.Context, addrs []string) []Check {
	panes := countPrefix(addrs, "tmux:")
	path, err := d.LookPath("tmux")
	if err != nil {
		return []Check{{Name: "tmux", Verdict: needVerdict(panes, VerdictNote), Message: "not found on PATH; " + neededBy(panes, "tmux pane", "tmux panes"),
			Fix: "install tmux 3.2 or newer"}}
	}
	checks := []Check{d.checkTmuxBinary(ctx, path, panes)}
	servers := tmuxServers(addrs)
	if d.Env != nil {
		// The server doctor runs in, where the next attach will be.
		if own, err := tmux.ServerFromEnv(d.Env("TMUX")); err == nil && !slices.Contains(servers, own) {
			servers = append(servers, own)
		}
	}
	for _, srv := range servers {
		checks = append(checks, d.checkTmuxServer(ctx, srv))
	}
	return checks
}

func (d *Doctor) checkTmuxBinary(ctx context.Context, path string, panes int) Check {
	out, err := d.output(ctx, path, "-V")
	v := strings.TrimSpace(out)
	if err == nil {
		err = tmux.CheckVersion(v)
	}
	if err != nil {
		return Check{Name: "tmux", Verdict: needVerdict(panes, VerdictWarn), Message: fmt.Sprintf("%s: %v; %s", path, err, neededBy(panes, "tmux pane", "tmux panes")),
			Fix: "install tmux 3.2 or newer"}
	}
	return releaseCheck("tmux", v+" ("+path+")", v)
}

func (d *Doctor) checkTmuxServer(ctx context.Context, srv tmux.Server) Check {
	name := "tmux server " + srv.Socket
	v, err := d.TmuxServerVersion(ctx, srv)
	if err != nil {
		return Check{Name: name, Verdict: VerdictWarn, Message: err.Error(), Fix: "codeman status shows whether its panes are still controlled"}
	}
	if err := tmux.CheckVersion(v); err != nil {
		return Check{Name: name, Verdict: VerdictError, Message: "runs " + err.Error(),
			Fix: "restart this server with a newer tmux: its sessions end with it"}
	}
	if d.TmuxPanes != nil {
		// A server codeman cannot read is no server codeman works with,
		// whatever its version says.
		if _, err := d.TmuxPanes(ctx, srv); err != nil {
			return Check{Name: name, Verdict: VerdictError, Message: "runs tmux " + v + ", but codeman cannot read its panes: " + err.Error(),
				Fix: "report this with `tmux -V`; tmux " + strings.Join(tmux.TestedReleases, ", ") + " are tested"}
		}
	}
	return releaseCheck(name, "runs tmux "+v, v)
}

// releaseCheck turns what codeman knows of tmux release v into a check.
func releaseCheck(name, msg, v string) Check {
	pv, err := tmux.ParseVersion(v)
	if err != nil {
		return Check{Name: name, Verdict: VerdictWarn, Message: msg + ": " + err.Error()}
	}
	sup := tmux.Support(pv)
	c := Check{Name: name, Verdict: VerdictOK, Message: msg, Fix: sup.Fix}
	switch {
	case !sup.Tested:
		c.Verdict = VerdictNote
		c.Message += ": " + sup.Note
	case sup.Fix != "":
		c.Verdict = VerdictWarn
		c.Message += ": " + sup.Note
	case sup.Note != "":
		c.Message += " (" + sup.Note + ")"
	}
	return c
}

// tmuxServers are the distinct servers of the tmux addresses, in order.
func tmuxServers(addrs []string) []tmux.Server {
	var out []tmux.Server
	for _, a := range addrs {
		srv, _, err := tmux.ParseAddress(a)
		if err != nil || slices.Contains(out, srv) {
			continue
		}
		out = append(out, srv)
	}
	return out
}

// checkScreen checks the GNU screen on PATH.
func (d *Doctor) checkScreen(ctx context.Context, addrs []string) Check {
	panes := countPrefix(addrs, "screen:")
	fix := fmt.Sprintf("install GNU screen %s or newer", screen.MinVersion)
	if _, err := d.LookPath("screen"); err != nil {
		return Check{Name: "screen", Verdict: needVerdict(panes, VerdictNote), Message: "GNU screen not found on PATH; " + neededBy(panes, "screen window", "screen windows"), Fix: fix}
	}
	v, err := screen.InstalledVersion(ctx, d.Screen)
	if err != nil {
		return Check{Name: "screen", Verdict: needVerdict(panes, VerdictWarn), Message: err.Error() + "; " + neededBy(panes, "screen window", "screen windows"), Fix: fix}
	}
	msg := "GNU screen " + v.String()
	if !v.ExactHardcopy() {
		msg += " (its hardcopy drops some characters; codeman repairs what it reads)"
	}
	return Check{Name: "screen", Verdict: VerdictOK, Message: msg}
}
