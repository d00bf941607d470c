package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/renameio/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// Pane options of codeman's besides tmux.OptionEnabled and OptionState.
const (
	// optionSets keeps a pane's --set values next to @codeman, so an
	// adopted pane gets them back: a JSON list of key=value strings.
	optionSets = "@codeman-set"
	// optionOwner names the daemon that controls the pane (owner).
	optionOwner = "@codeman-owner"
	// optionPaused is set while the pane is paused, so an adopted pane
	// stays paused.
	optionPaused = "@codeman-paused"
)

// tmuxBackend shares one control-mode client per tmux session among its
// panes and checks every watched server for panes that closed.
type tmuxBackend struct {
	host  host
	log   *slog.Logger
	env   func(string) string
	known string // the file of the tmux servers panes were attached on
	me    string // the owner record this daemon writes into its panes

	mu       sync.Mutex
	sessions map[string]*tmuxSession // socket + "\x00" + session
	servers  map[string]context.CancelFunc
	wg       sync.WaitGroup
	needs    *windowNeeds
}

type tmuxSession struct {
	client *tmux.Client
	refs   int
}

// tmuxPane is the backend half of a controlled tmux pane.
type tmuxPane struct {
	b       *tmuxBackend
	info    tmux.PaneInfo
	addr    string
	srv     tmux.Server // as the address names it
	client  *tmux.Client
	key     string
	me      string // the owner record this daemon wrote, once claimed
	state   *tmux.StateWriter
	term    *tmux.PaneTerminal
	current atomic.Value // string: pane_current_command
}

func newTmuxBackend(h host, log *slog.Logger, env func(string) string, known string, me owner) *tmuxBackend {
	return &tmuxBackend{host: h, log: log, env: env, known: known, me: me.String(),
		sessions: make(map[string]*tmuxSession), servers: make(map[string]context.CancelFunc), needs: newWindowNeeds()}
}

func (b *tmuxBackend) prefix() string { return "tmux:" }

func (b *tmuxBackend) canonical(addr string) (string, error) { return tmux.CanonicalAddress(addr) }

func (b *tmuxBackend) open(ctx context.Context, addr string, file *config.File, _ bool) (*opened, error) {
	srv, id, err := tmux.ParseAddress(addr)
	if err != nil {
		return nil, err
	}
	info, err := b.resolve(ctx, srv, id)
	if err != nil {
		return nil, err
	}
	if err := tmux.CheckVersion(info.Version); err != nil {
		return nil, err
	}
	if info.Dead {
		return nil, fmt.Errorf("attach %s: the pane's program has exited", info.Address())
	}
	client, key, err := b.acquire(srv, info.Session, info.Version)
	if err != nil {
		return nil, err
	}
	// Commands go over the session's control connection, which acquire
	// brought up: a tmux process per command costs 3 ms each, on the path
	// to the first key and on the attach's.
	tp := &tmuxPane{b: b, info: info, addr: addr, srv: srv, client: client, key: key, state: tmux.NewStateWriter(client, id)}
	tp.current.Store(info.Command)
	timing := file.Tmux.SendTiming()
	// Until the controller's terminal is made, the screen is read with the
	// config's timing, which reads no prompt box.
	tp.term = tmux.NewPaneTerminal(srv, id, tmux.TerminalOptions{Timing: timing, Runner: client})
	b.watchServer(info.Server, info.ServerPID)
	if err := b.rememberServer(info.Server.Socket); err != nil {
		b.log.Warn("tmux server not remembered; adoption after a restart may miss it", "socket", info.Server.Socket, "err", err)
	}
	return &opened{
		target:    info.Target() + " (" + info.ID + ")",
		subscribe: func(fn func([]byte, time.Time)) func() { return client.Subscribe(id, fn) },
		onStatus:  tp.state.Set,
		streams:   true,
		timing:    timing,
		backend:   tp,
	}, nil
}

// resolve reads a pane and its server's version over a control connection
// the daemon has to that server, else with a tmux process.
func (b *tmuxBackend) resolve(ctx context.Context, srv tmux.Server, id string) (tmux.PaneInfo, error) {
	b.mu.Lock()
	var via *tmux.Client
	for key, s := range b.sessions {
		if strings.HasPrefix(key, srv.Socket+"\x00") && s.client.Connected() {
			via = s.client
			break
		}
	}
	b.mu.Unlock()
	if via != nil {
		return tmux.ResolvePaneWith(ctx, via, srv, id)
	}
	return srv.ResolvePane(ctx, id)
}

// acquire returns the session's control client, starting it when needed.
func (b *tmuxBackend) acquire(srv tmux.Server, session, version string) (*tmux.Client, string, error) {
	key := srv.Socket + "\x00" + session
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.sessions[key]; s != nil {
		s.refs++
		return s.client, key, nil
	}
	c := tmux.NewClient(srv, session, tmux.ClientOptions{Logger: b.log, ServerVersion: version})
	if err := c.Start(b.host.lifetime()); err != nil {
		return nil, "", fmt.Errorf("watch tmux session %s: %w", session, err)
	}
	b.sessions[key] = &tmuxSession{client: c, refs: 1}
	return c, key, nil
}

func (b *tmuxBackend) releaseSession(key string) {
	b.mu.Lock()
	s := b.sessions[key]
	if s == nil {
		b.mu.Unlock()
		return
	}
	s.refs--
	if s.refs > 0 {
		b.mu.Unlock()
		return
	}
	delete(b.sessions, key)
	b.mu.Unlock()
	s.client.Close()
}

func (p *tmuxPane) snapshot(ctx context.Context) (respawn.Screen, error) {
	return p.term.Snapshot(ctx)
}

// terminal makes the controller's terminal, through which the pane's
// screen is read from then on: what an explain or a check for another
// agent reads tells Submit whether vim is on, as the controller's own
// reads do. The pane is not yet controlled, so nothing reads term
// meanwhile.
func (p *tmuxPane) terminal(timing respawn.SendTiming) respawn.Terminal {
	p.term = tmux.NewPaneTerminal(p.srv, p.info.ID, tmux.TerminalOptions{Timing: timing, Runner: p.client})
	return p.term
}

func (p *tmuxPane) mode() string {
	return p.client.Mode()
}

func (p *tmuxPane) command() string {
	s, _ := p.current.Load().(string)
	return s
}

func (p *tmuxPane) forget(ctx context.Context) {
	p.b.forget(ctx, p.addr)
}

func (p *tmuxPane) close() {
	p.state.Close()
	p.b.needs.set(p, "", true)
	p.b.releaseSession(p.key)
}

func (p *tmuxPane) showNeed(kind string) { p.b.needs.set(p, kind, false) }

func (p *tmuxPane) place(ctx context.Context) place {
	f, err := tmux.ReadFields(ctx, p.client, p.info.ID, "#{session_name}", "#{window_name}", "#{pane_current_path}")
	if err != nil {
		return place{session: p.info.Session, window: p.info.Window}
	}
	return place{session: f[0], window: f[1], cwd: f[2]}
}

func (p *tmuxPane) notice(ctx context.Context, text string, bell bool) error {
	_, err := tmux.Notice(ctx, p.client, p.info.ID, text, bell)
	return err
}

// claim writes this daemon into the pane's @codeman-owner, unless a live
// daemon is written there. The swap is one tmux command, so of two daemons
// claiming at once one wins and the other is told who did.
func (p *tmuxPane) claim(ctx context.Context, me owner) error {
	id := p.info.ID
	cur, _, err := tmux.ReadPaneOption(ctx, p.client, id, optionOwner)
	if err != nil {
		return err
	}
	if cur == me.String() {
		p.me = cur
		return nil
	}
	if o, ok := parseOwner(cur); ok && o.alive() {
		return &OwnedError{Pane: p.addr, PID: o.pid}
	} else if !ok && cur != "" {
		return fmt.Errorf("claim %s: %s holds %q, which is not a codeman owner; unset it (tmux set-option -p -u -t %s %s)", p.addr, optionOwner, cur, id, optionOwner)
	}
	won, err := tmux.SwapPaneOptionWith(ctx, p.client, id, optionOwner, cur, me.String())
	if err != nil {
		return err
	}
	if !won {
		now, _, _ := tmux.ReadPaneOption(ctx, p.client, id, optionOwner)
		o, _ := parseOwner(now)
		return &OwnedError{Pane: p.addr, PID: o.pid}
	}
	p.me = me.String()
	return nil
}

// owned reads @codeman-owner over the control connection: a pane that
// closed, or a new server behind the same socket whose pane has the same
// id, has no owner, so nothing is typed into it.
func (p *tmuxPane) owned(ctx context.Context) error {
	cur, _, err := tmux.ReadPaneOption(ctx, p.client, p.info.ID, optionOwner)
	switch {
	case errors.Is(err, tmux.ErrNoPane):
		return fmt.Errorf("%w: the pane is gone", api.ErrNotOwner)
	case err != nil:
		return err
	case cur != p.me:
		if o, ok := parseOwner(cur); ok {
			return fmt.Errorf("%w: the pane's owner is now pid %d", api.ErrNotOwner, o.pid)
		}
		return fmt.Errorf("%w: the pane has no owner (a new tmux server?)", api.ErrNotOwner)
	}
	return nil
}

func (p *tmuxPane) unclaim(ctx context.Context) {
	if p.me == "" {
		return
	}
	// The pane may be gone, or owned by another daemon now; either way
	// there is nothing of ours to remove.
	_, _ = tmux.SwapPaneOptionWith(ctx, p.client, p.info.ID, optionOwner, p.me, "")
}

func (p *tmuxPane) setPaused(ctx context.Context, paused bool) error {
	if paused {
		return tmux.SetPaneOptionWith(ctx, p.client, p.info.ID, optionPaused, "1")
	}
	return tmux.UnsetPaneOptionWith(ctx, p.client, p.info.ID, optionPaused)
}

// persist writes the pane's enabled flag and settings into pane options.
// The settings are a JSON list (a --set value may hold a newline) that
// reads back the same on every tmux release (tmux.ListValue).
func (p *tmuxPane) persist(ctx context.Context, profile string, sets []string) error {
	id := p.info.ID
	value := profile
	if value == "" {
		value = "on"
	}
	if err := tmux.SetPaneOptionWith(ctx, p.client, id, tmux.OptionEnabled, value); err != nil {
		return err
	}
	if len(sets) == 0 {
		return tmux.UnsetPaneOptionWith(ctx, p.client, id, optionSets)
	}
	return tmux.SetPaneOptionWith(ctx, p.client, id, optionSets, tmux.ListValue(sets))
}

// forget removes codeman's options from a pane; the owner record only
// when it is this daemon's or its daemon is gone.
func (b *tmuxBackend) forget(ctx context.Context, addr string) {
	srv, id, err := tmux.ParseAddress(addr)
	if err != nil {
		return
	}
	if cur, _, _ := srv.PaneOption(ctx, id, optionOwner); cur != "" {
		if o, ok := parseOwner(cur); ok && o.alive() && cur != b.me {
			return // another daemon's pane now; its options are its own
		}
		_, _ = srv.SwapPaneOption(ctx, id, optionOwner, cur, "")
	}
	for _, opt := range []string{tmux.OptionEnabled, optionSets, optionPaused, tmux.OptionState} {
		// The pane may be gone already; nothing is left to forget then.
		_ = srv.UnsetPaneOption(ctx, id, opt)
	}
}

func (b *tmuxBackend) stillEnabled(ctx context.Context, addr string) bool {
	srv, id, err := tmux.ParseAddress(addr)
	if err != nil {
		return false
	}
	v, ok, err := srv.PaneOption(ctx, id, tmux.OptionEnabled)
	if errors.Is(err, tmux.ErrNoPane) || errors.Is(err, tmux.ErrNoServer) {
		return false
	}
	return err != nil || ok && v != ""
}

// showProblem puts the problem on the pane's status line.
func (b *tmuxBackend) showProblem(ctx context.Context, addr, problem string) {
	srv, id, err := tmux.ParseAddress(addr)
	if err != nil || problem == "" {
		return // with no problem, the controller writes its own state
	}
	if err := srv.SetPaneOption(ctx, id, tmux.OptionState, problem); err != nil {
		b.log.Info("pane state not shown", "pane", addr, "err", err)
	}
}

// watchServer checks a server's panes every Liveness: a controlled pane
// that closed, died, or belongs to a server that restarted (pane ids
// restart with it) ends its controller.
func (b *tmuxBackend) watchServer(srv tmux.Server, serverPID int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.servers[srv.Socket]; ok {
		return
	}
	ctx, cancel := context.WithCancel(b.host.lifetime())
	b.servers[srv.Socket] = cancel
	b.host.every(ctx, &b.wg, func() bool {
		if b.checkServer(ctx, srv, serverPID) {
			return true
		}
		b.mu.Lock()
		delete(b.servers, srv.Socket)
		b.mu.Unlock()
		cancel()
		return false
	})
}

// checkServer releases the server's panes that are gone, tells the host
// what the others run now, and reports whether any of its panes is still
// controlled.
func (b *tmuxBackend) checkServer(ctx context.Context, srv tmux.Server, serverPID int) bool {
	prefix := "tmux:" + srv.Socket + ":"
	listCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	listed, err := srv.ListPanes(listCtx)
	cancel()
	if err != nil && ctx.Err() != nil {
		return true
	}
	alive := map[string]tmux.ListedPane{}
	for _, lp := range listed {
		alive[lp.ID] = lp
	}
	type gonePane struct {
		addr   string
		pb     paneBackend
		reason string
	}
	var gone []gonePane
	var running []ranPane
	remaining := 0
	for addr, pb := range b.host.controlled(prefix) {
		tp := pb.(*tmuxPane)
		lp, ok := alive[tp.info.ID]
		switch {
		case err != nil:
			gone = append(gone, gonePane{addr, pb, "tmux server gone: " + err.Error()})
		case !ok:
			gone = append(gone, gonePane{addr, pb, "pane closed"})
		case lp.ServerPID != tp.info.ServerPID:
			gone = append(gone, gonePane{addr, pb, "tmux server restarted"})
		case lp.Dead:
			gone = append(gone, gonePane{addr, pb, "the pane's program exited"})
		default:
			prev := tp.command()
			tp.current.Store(lp.Command)
			remaining++
			running = append(running, ranPane{addr: addr, backend: pb, prev: prev, now: lp.Command})
		}
	}
	for _, g := range gone {
		b.host.release(g.addr, g.pb, g.reason, g.reason == "the pane's program exited")
	}
	b.host.ran(ctx, running)
	return remaining > 0
}

// enabled lists the panes of every known server that carry @codeman.
func (b *tmuxBackend) enabled(ctx context.Context) []adoptable {
	sockets, err := b.knownServers()
	if err != nil {
		b.log.Warn("known tmux servers unreadable", "err", err)
	}
	sockets = append(sockets, tmux.DefaultServer(b.env).Socket)
	if env := b.env("TMUX"); env != "" {
		if srv, err := tmux.ServerFromEnv(env); err == nil {
			sockets = append(sockets, srv.Socket)
		}
	}
	for i, s := range sockets {
		if real, err := tmux.CanonicalSocket(s); err == nil {
			sockets[i] = real
		}
	}
	slices.Sort(sockets)
	var out []adoptable
	for _, socket := range slices.Compact(sockets) {
		if _, err := os.Stat(socket); err != nil {
			continue
		}
		srv := tmux.Server{Socket: socket}
		listed, err := srv.ListPanes(ctx)
		if err != nil {
			b.log.Info("tmux panes not listed", "socket", socket, "err", err)
		}
		for _, lp := range listed {
			if lp.Enabled == "" || lp.Dead {
				continue
			}
			a := adoptable{req: api.AttachRequest{Pane: lp.Address()}}
			if lp.Enabled != "on" {
				a.req.Profile = lp.Enabled
			}
			if v, ok, _ := srv.PaneOption(ctx, lp.ID, optionSets); ok && v != "" {
				a.req.Sets, a.err = parseSets(v)
			}
			if v, ok, _ := srv.PaneOption(ctx, lp.ID, optionPaused); ok && v != "" {
				a.req.Paused = true
			}
			out = append(out, a)
		}
	}
	return out
}

// parseSets reads @codeman-set: a JSON list, or the lines of older
// versions, which joined the values with newlines.
func parseSets(v string) ([]string, error) {
	if !strings.HasPrefix(v, "[") {
		return strings.Split(v, "\n"), nil
	}
	var sets []string
	if err := json.Unmarshal([]byte(v), &sets); err != nil {
		return nil, fmt.Errorf("read %s %q: %w", optionSets, v, err)
	}
	return sets, nil
}

// knownServers reads the sockets of the tmux servers panes were attached on.
func (b *tmuxBackend) knownServers() ([]string, error) {
	data, err := os.ReadFile(b.known)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var sockets []string
	if err := json.Unmarshal(data, &sockets); err != nil {
		return nil, fmt.Errorf("%s: %w", b.known, err)
	}
	return sockets, nil
}

func (b *tmuxBackend) rememberServer(socket string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	sockets, err := b.knownServers()
	if err != nil {
		sockets = nil // a damaged list is rebuilt
	}
	if slices.Contains(sockets, socket) {
		return nil
	}
	// Drop servers whose sockets are gone, so the list does not grow forever.
	sockets = slices.DeleteFunc(sockets, func(s string) bool { _, err := os.Stat(s); return err != nil })
	data, _ := json.Marshal(append(sockets, socket))
	return renameio.WriteFile(b.known, data, 0o600)
}

func (b *tmuxBackend) close() {
	b.mu.Lock()
	for _, cancel := range b.servers {
		cancel()
	}
	sessions := b.sessions
	b.sessions = make(map[string]*tmuxSession)
	b.mu.Unlock()
	for _, s := range sessions {
		s.client.Close()
	}
	b.wg.Wait()
}
