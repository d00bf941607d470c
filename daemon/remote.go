package daemon

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/remote"
	"github.com/codeman-dev/codeman/respawn"
)

// Files of the state dir that answering from the phone keeps.
const (
	answerUsedFile  = "answers-used.json" // the tokens taken, until they expire
	answerSinceFile = "answers-since"     // the reply topic's last message handled
)

// answers is answering from the phone ([notify.answer]): the buttons of
// the needs' notifications, and the subscription to the reply topic they
// post to, which hands each token to the pane's press gate.
type answers struct {
	d *Daemon

	mu       sync.Mutex
	cfg      config.NotifyAnswer // what runs
	a        *remote.Answerer    // nil while off
	sub      *remote.Subscriber
	stop     context.CancelFunc
	done     chan struct{}
	problem  string
	lastTest time.Time
}

// load applies [notify.answer] of file, restarting the subscription
// when its topic or token changed; nil file (unreadable) keeps what runs.
func (as *answers) load(file *config.File) {
	if file == nil {
		return
	}
	cfg := file.Notify.Answer
	as.mu.Lock()
	same := as.a != nil && as.cfg.Topic == cfg.Topic && as.cfg.AccessToken == cfg.AccessToken
	if same {
		as.cfg, as.a.Kinds, as.a.Lifetime = cfg, cfg.AnswerKinds(), cfg.TokenLifetime
	}
	as.mu.Unlock()
	if same {
		return
	}
	as.close()
	if cfg.Topic == "" {
		return
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	as.cfg = cfg
	d := as.d
	if d.opts.Paths.State == "" {
		as.problem = "no state dir to keep the answer key in"
		return
	}
	key, err := remote.LoadKey(filepath.Join(d.opts.Paths.State, remote.KeyFile))
	if err != nil {
		as.problem = err.Error()
		d.log.Error("answering from the phone is off", "err", err)
		return
	}
	log := d.log.With("topic", notify.Redact(cfg.Topic))
	a := &remote.Answerer{Key: key, Used: remote.NewUsed(filepath.Join(d.opts.Paths.State, answerUsedFile)),
		ReplyURL: cfg.Topic, AccessToken: cfg.AccessToken, Kinds: cfg.AnswerKinds(), Lifetime: cfg.TokenLifetime,
		Answer: d.Answer, Refused: as.refused, Tested: as.tested, Clock: d.opts.Clock, Log: log}
	sub := &remote.Subscriber{URL: cfg.Topic, AccessToken: cfg.AccessToken, SincePath: filepath.Join(d.opts.Paths.State, answerSinceFile),
		Backfill: a.Lifetime, Handle: a.Take, Clock: d.opts.Clock, Log: log}
	ctx, cancel := context.WithCancel(d.ctx)
	as.a, as.sub, as.stop, as.done, as.problem = a, sub, cancel, make(chan struct{}), ""
	go func(done chan struct{}) {
		defer close(done)
		// A button pressed while the daemon was down is answered once the
		// panes enabled before it started are controlled again.
		select {
		case <-d.adopted:
		case <-ctx.Done():
			return
		}
		sub.Run(ctx)
	}(as.done)
}

// buttons are the answer buttons of pane's need n; none while off.
func (as *answers) buttons(pane string, n respawn.Need) []notify.Button {
	as.mu.Lock()
	a := as.a
	as.mu.Unlock()
	if a == nil {
		return nil
	}
	return a.Buttons(pane, n)
}

// refused records a signed answer that was not typed in its pane's
// decisions.
func (as *answers) refused(pane, reason string) {
	if p := as.d.lookup(pane); p != nil {
		_ = p.ctrl.Note(respawn.DecisionSkip, reason)
	}
}

func (as *answers) tested() {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.lastTest = as.d.opts.Clock.Now()
}

// status is what doctor shows of it; nil while off.
func (as *answers) status() *api.AnswerStatus {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.cfg.Topic == "" {
		return nil
	}
	st := &api.AnswerStatus{Topic: notify.Redact(as.cfg.Topic), Problem: as.problem, LastTest: as.lastTest}
	if as.sub != nil {
		s := as.sub.Status()
		st.Connected, st.Since, st.Error, st.Messages = s.Connected, s.Since, s.Err, s.Messages
	}
	return st
}

// close stops the subscription and waits for it.
func (as *answers) close() {
	as.mu.Lock()
	stop, done := as.stop, as.done
	as.a, as.sub, as.stop, as.done, as.cfg, as.problem = nil, nil, nil, nil, config.NotifyAnswer{}, ""
	as.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
