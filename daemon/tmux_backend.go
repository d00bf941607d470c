package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/renameio/v2"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// optionSets keeps a pane's --set values next to @codeman, so an adopted
// pane gets them back.
const optionSets = "@codeman-set"

// tmuxBackend shares one control-mode client per tmux session among its
// panes and checks every watched server for panes that closed.
type tmuxBackend struct {
	d *Daemon

	mu       sync.Mutex
	sessions map[string]*tmuxSession // socket + "\x00" + session
	servers  map[string]context.CancelFunc
	wg       sync.WaitGroup
}

type tmuxSession struct {
	client *tmux.Client
	refs   int
}

// tmuxPane is the backend half of a controlled tmux pane.
type tmuxPane struct {
	b       *tmuxBackend
	info    tmux.PaneInfo
	client  *tmux.Client
	key     string
	unsub   func()
	state   *tmux.StateWriter
	term    *tmux.PaneTerminal
	current atomic.Value // string: pane_current_command
}

func newTmuxBackend(d *Daemon) *tmuxBackend {
	return &tmuxBackend{d: d, sessions: make(map[string]*tmuxSession), servers: make(map[string]context.CancelFunc)}
}

func (b *tmuxBackend) attach(ctx context.Context, req AttachRequest, file *respawn.File, cfg respawn.Config, pat *respawn.Patterns) (*pane, error) {
	srv, id, err := tmux.ParseAddress(req.Pane)
	if err != nil {
		return nil, err
	}
	version, err := srv.Version(ctx)
	if err != nil {
		return nil, err
	}
	if err := tmux.CheckVersion(version); err != nil {
		return nil, err
	}
	info, err := srv.ResolvePane(ctx, id)
	if err != nil {
		return nil, err
	}
	if info.Dead {
		return nil, fmt.Errorf("attach %s: the pane's program has exited", info.Address())
	}
	client, key, err := b.acquire(srv, info.Session)
	if err != nil {
		return nil, err
	}
	tp := &tmuxPane{b: b, info: info, client: client, key: key, state: tmux.NewStateWriter(srv, id)}
	tp.current.Store(info.Command)
	// Commands go over the session's control connection: a tmux process
	// per command costs 3 ms each on the path to the first key.
	pause, retries := sendTiming(file.Tmux)
	tp.term = tmux.NewPaneTerminal(srv, id, tmux.TerminalOptions{SendPause: pause, EnterRetries: retries, Runner: client})
	ctrl := respawn.NewController(respawn.ControllerOptions{
		Pane: info.Address(), Config: cfg, Patterns: pat, Terminal: tp.term, Checker: b.d.checker, CheckerDown: b.d.checkerMsg,
		Clock: b.d.opts.Clock, Logger: b.d.log, OnStatus: tp.state.Set,
	})
	tp.unsub = client.Subscribe(id, func(data []byte, _ time.Time) { ctrl.Output(data) })
	b.watchServer(info.Server, info.ServerPID)
	if err := b.rememberServer(info.Server.Socket); err != nil {
		b.d.log.Warn("tmux server not remembered; adoption after a restart may miss it", "socket", info.Server.Socket, "err", err)
	}
	return &pane{addr: info.Address(), target: info.Target() + " (" + info.ID + ")", ctrl: ctrl, patterns: pat, backend: tp}, nil
}

// acquire returns the session's control client, starting it when needed.
func (b *tmuxBackend) acquire(srv tmux.Server, session string) (*tmux.Client, string, error) {
	key := srv.Socket + "\x00" + session
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.sessions[key]; s != nil {
		s.refs++
		return s.client, key, nil
	}
	c := tmux.NewClient(srv, session, tmux.ClientOptions{Logger: b.d.log})
	if err := c.Start(b.d.ctx); err != nil {
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

func (p *tmuxPane) mode() string {
	return p.client.Mode()
}

func (p *tmuxPane) command() string {
	s, _ := p.current.Load().(string)
	return s
}

func (p *tmuxPane) forget(ctx context.Context) {
	for _, opt := range []string{tmux.OptionEnabled, optionSets, tmux.OptionState} {
		// The pane may be gone already; nothing is left to forget then.
		_ = p.info.Server.UnsetPaneOption(ctx, p.info.ID, opt)
	}
}

func (p *tmuxPane) close() {
	p.unsub()
	p.state.Close()
	p.b.releaseSession(p.key)
}

// persist writes the pane's enabled flag and settings into pane options.
func (b *tmuxBackend) persist(ctx context.Context, p *pane) error {
	tp := p.backend.(*tmuxPane)
	srv, id := tp.info.Server, tp.info.ID
	value := p.profile
	if value == "" {
		value = "on"
	}
	if err := srv.SetPaneOption(ctx, id, tmux.OptionEnabled, value); err != nil {
		return err
	}
	if len(p.sets) == 0 {
		return srv.UnsetPaneOption(ctx, id, optionSets)
	}
	return srv.SetPaneOption(ctx, id, optionSets, strings.Join(p.sets, "\n"))
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
	ctx, cancel := context.WithCancel(b.d.ctx)
	b.servers[srv.Socket] = cancel
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		tick := b.d.opts.Clock.NewTicker(b.d.opts.Liveness)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.Chan():
				if !b.checkServer(ctx, srv, serverPID) {
					b.mu.Lock()
					delete(b.servers, srv.Socket)
					b.mu.Unlock()
					cancel()
					return
				}
			}
		}
	}()
}

// checkServer releases the server's panes that are gone and reports
// whether any of its panes is still controlled.
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
	b.d.mu.Lock()
	var gone []*pane
	var reasons []string
	remaining := 0
	for addr, p := range b.d.panes {
		if !strings.HasPrefix(addr, prefix) {
			continue
		}
		tp := p.backend.(*tmuxPane)
		lp, ok := alive[tp.info.ID]
		switch {
		case err != nil:
			gone, reasons = append(gone, p), append(reasons, "tmux server gone: "+err.Error())
		case !ok:
			gone, reasons = append(gone, p), append(reasons, "pane closed")
		case lp.ServerPID != tp.info.ServerPID:
			gone, reasons = append(gone, p), append(reasons, "tmux server restarted")
		case lp.Dead:
			gone, reasons = append(gone, p), append(reasons, "the pane's program exited")
		default:
			tp.current.Store(lp.Command)
			remaining++
		}
	}
	b.d.mu.Unlock()
	for i, p := range gone {
		b.d.release(p, reasons[i], reasons[i] == "the pane's program exited")
	}
	return remaining > 0
}

// enabledPanes lists the panes of every known server that carry @codeman.
func (b *tmuxBackend) enabledPanes(ctx context.Context) []AttachRequest {
	sockets, err := b.knownServers()
	if err != nil {
		b.d.log.Warn("known tmux servers unreadable", "err", err)
	}
	sockets = append(sockets, tmux.DefaultServer(b.d.opts.Env).Socket)
	if env := b.d.opts.Env("TMUX"); env != "" {
		if srv, err := tmux.ServerFromEnv(env); err == nil {
			sockets = append(sockets, srv.Socket)
		}
	}
	slices.Sort(sockets)
	var reqs []AttachRequest
	for _, socket := range slices.Compact(sockets) {
		if _, err := os.Stat(socket); err != nil {
			continue
		}
		srv := tmux.Server{Socket: socket}
		listed, err := srv.ListPanes(ctx)
		if err != nil {
			b.d.log.Info("tmux server not listed", "socket", socket, "err", err)
			continue
		}
		for _, lp := range listed {
			if lp.Enabled == "" || lp.Dead {
				continue
			}
			req := AttachRequest{Pane: lp.Address()}
			if lp.Enabled != "on" {
				req.Profile = lp.Enabled
			}
			if sets, ok, _ := srv.PaneOption(ctx, lp.ID, optionSets); ok && sets != "" {
				req.Sets = strings.Split(sets, "\n")
			}
			reqs = append(reqs, req)
		}
	}
	return reqs
}

// knownServers reads the sockets of the tmux servers panes were attached on.
func (b *tmuxBackend) knownServers() ([]string, error) {
	data, err := os.ReadFile(b.d.opts.Paths.TmuxServers)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var sockets []string
	if err := json.Unmarshal(data, &sockets); err != nil {
		return nil, fmt.Errorf("%s: %w", b.d.opts.Paths.TmuxServers, err)
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
	return renameio.WriteFile(b.d.opts.Paths.TmuxServers, data, 0o600)
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
