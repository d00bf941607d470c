package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/api"
)

// daemonState is what the doctor learnt of the user's daemon.
type daemonState struct {
	paths    api.Paths
	skipped  bool  // the paths are unusable, so no daemon was looked for
	err      error // the daemon did not answer, for another reason than not running
	running  bool
	health   api.Health
	panes    []api.PaneStatus
	panesErr error
	enabled  []string // when no daemon runs: the panes one would adopt
}

// addresses are the enabled panes, controlled or not.
func (s daemonState) addresses() []string {
	if !s.running {
		return s.enabled
	}
	out := make([]string, len(s.panes))
	for i, p := range s.panes {
		out[i] = p.Pane
	}
	return out
}

// probeDaemon asks the running daemon for its panes and health, or lists
// the enabled panes when none runs.
func (d *Doctor) probeDaemon(ctx context.Context, paths api.Paths, pathsErr error) daemonState {
	st := daemonState{paths: paths}
	if pathsErr != nil {
		st.skipped = true
		return st
	}
	client, err := d.Connect(ctx, paths)
	if errors.Is(err, api.ErrNotRunning) {
		st.enabled = d.Enabled(ctx, paths)
		return st
	}
	if err != nil {
		st.err = err
		return st
	}
	st.running = true
	// The pane list waits for the daemon's adoption of the panes enabled
	// before it started, so the health asked after it counts them all.
	st.panes, st.panesErr = client.Panes(ctx)
	st.health, st.err = client.Health(ctx)
	// A controller's loop starts a moment after its pane is counted.
	deadline := d.Clock.Now().Add(d.ControllerSettle)
	for st.err == nil && st.health.Controllers != st.health.Panes && d.Clock.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return st
		case <-d.Clock.After(controllerRecheck):
		}
		st.health, st.err = client.Health(ctx)
	}
	return st
}

// checkDaemon reports the daemon, then every enabled pane.
func (d *Doctor) checkDaemon(st daemonState) []Check {
	switch {
	case st.skipped:
		return []Check{{Name: "daemon", Verdict: VerdictNote, Message: "not looked for: the runtime dir is unusable (see above)"}}
	case st.err != nil:
		msg, fix := unanswered(st.err, st.paths.Log)
		return []Check{{Name: "daemon", Verdict: VerdictError, Message: msg, Fix: fix}}
	case !st.running:
		return d.checkNoDaemon(st)
	}
	checks := []Check{d.checkHealth(st), d.checkDaemonVersion(st.health)}
	checks = append(checks, checkNotify(st.health.Notify)...)
	checks = append(checks, checkHistory(st.health)...)
	return append(checks, d.checkPanes(st)...)
}

// checkHistory reports the writes of the pane histories when they failed
// or dropped records; a daemon whose writes never failed adds nothing.
func checkHistory(h api.Health) []Check {
	const name = "pane history"
	st := h.History
	at := func(t time.Time) string { return t.Local().Format(time.DateTime) }
	var checks []Check
	switch {
	case st.Problem == "":
	case st.NotKept:
		checks = append(checks, Check{Name: name, Verdict: VerdictError,
			Message: fmt.Sprintf("not kept since %s: %s", at(st.Since), st.Problem),
			Fix:     fmt.Sprintf("make %s a directory of yours (move away what is there), then restart the daemon: kill %d, then codeman daemon", st.Dir, h.PID)})
	case st.Recovered.IsZero():
		checks = append(checks, Check{Name: name, Verdict: VerdictError,
			Message: fmt.Sprintf("writes to %s fail since %s: %s", st.Dir, at(st.Since), st.Problem),
			Fix:     fmt.Sprintf("free disk space, or make %s a directory of yours again (move away what is there); the daemon writes again by itself", st.Dir)})
	default:
		checks = append(checks, Check{Name: name, Verdict: VerdictNote,
			Message: fmt.Sprintf("writes to %s failed from %s to %s, whose records are lost: %s", st.Dir, at(st.Since), at(st.Recovered), st.Problem)})
	}
	if st.Dropped > 0 {
		checks = append(checks, Check{Name: name, Verdict: VerdictNote,
			Message: fmt.Sprintf("%d %s dropped while the disk fell behind", st.Dropped, plural(int(st.Dropped), "record", "records"))})
	}
	return checks
}

// unanswered is what the doctor says of a daemon that did not answer,
// for an err of api.Connect that is not api.ErrNotRunning: the message
// and the fix.
func unanswered(err error, log string) (message, fix string) {
	var na *api.NotAnsweringError
	if !errors.As(err, &na) {
		return "does not answer: " + err.Error(), fmt.Sprintf("see %s; stop the codeman daemon process and run codeman daemon", log)
	}
	if na.Stopped() {
		return "does not answer: " + na.Diagnosis(), na.Fix()
	}
	return "does not answer: " + na.Diagnosis(), fmt.Sprintf("see %s; %s", log, na.Fix())
}

func (d *Doctor) checkNoDaemon(st daemonState) []Check {
	if len(st.enabled) == 0 {
		return []Check{{Name: "daemon", Verdict: VerdictNote, Message: "none runs and no pane is enabled; codeman attach starts one"}}
	}
	checks := []Check{{Name: "daemon", Verdict: VerdictNote,
		Message: fmt.Sprintf("none runs; %d enabled %s wait for one", len(st.enabled), plural(len(st.enabled), "pane", "panes"))}}
	for _, addr := range st.enabled {
		checks = append(checks, Check{Name: "pane " + addr, Verdict: VerdictError, Message: "enabled but not controlled: no daemon runs",
			Fix: "start one: codeman daemon, or codeman attach in any pane; it adopts every enabled pane"})
	}
	return checks
}

func (d *Doctor) checkHealth(st daemonState) Check {
	h := st.health
	if h.Controllers != h.Panes {
		return Check{Name: "daemon", Verdict: VerdictError,
			Message: fmt.Sprintf("pid %d controls %d %s but runs %d controller %s", h.PID, h.Panes, plural(h.Panes, "pane", "panes"), h.Controllers, plural(h.Controllers, "loop", "loops")),
			Fix:     fmt.Sprintf("see %s; restart it: kill %d, then codeman daemon (enabled panes are adopted again)", st.paths.Log, h.PID)}
	}
	return Check{Name: "daemon", Verdict: VerdictOK,
		Message: fmt.Sprintf("pid %d on %s controls %d %s", h.PID, h.Socket, h.Panes, plural(h.Panes, "pane", "panes"))}
}

func (d *Doctor) checkDaemonVersion(h api.Health) Check {
	if h.Version != d.Version {
		return Check{Name: "daemon version", Verdict: VerdictWarn,
			Message: fmt.Sprintf("the daemon runs codeman %s, this binary is %s", h.Version, d.Version),
			Fix:     fmt.Sprintf("restart it to run this binary: kill %d, then codeman daemon (enabled panes are adopted again)", h.PID)}
	}
	return Check{Name: "daemon version", Verdict: VerdictOK, Message: h.Version + ", the same as this binary"}
}

// checkPanes reports each enabled pane: controlled, or why not.
func (d *Doctor) checkPanes(st daemonState) []Check {
	if st.panesErr != nil {
		return []Check{{Name: "panes", Verdict: VerdictError, Message: "not listed: " + st.panesErr.Error(),
			Fix: fmt.Sprintf("see %s", st.paths.Log)}}
	}
	if len(st.panes) == 0 {
		return []Check{{Name: "panes", Verdict: VerdictNote, Message: "none enabled; codeman attach enables one"}}
	}
	checks := make([]Check, 0, len(st.panes))
	for _, p := range st.panes {
		name := "pane " + p.Target
		if p.Problem != "" {
			checks = append(checks, Check{Name: name, Verdict: VerdictError, Message: "enabled but not controlled: " + p.Problem,
				Fix: "fix what it names (a config fix is picked up at once), or stop it: codeman detach " + p.Pane})
			continue
		}
		msg := "controlled"
		if p.Status.State != "" {
			msg += ", " + p.Status.State
		}
		if p.Mode != "" {
			msg += "; output read by " + p.Mode
		}
		checks = append(checks, Check{Name: name, Verdict: VerdictOK, Message: msg})
	}
	return checks
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// countPrefix counts the addresses of one backend ("tmux:", "screen:").
func countPrefix(addrs []string, prefix string) int {
	n := 0
	for _, a := range addrs {
		if strings.HasPrefix(a, prefix) {
			n++
		}
	}
	return n
}
