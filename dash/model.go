package dash

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
)

// mode is what the keys act on.
type mode int

const (
	modeList    mode = iota
	modeFilter       // typing the filter
	modeConfirm      // y/n to detach the selected pane
	modeHelp
	modeExplain
)

// Messages the model receives besides keys and the window size.
type (
	// eventMsg is one event of the daemon's stream.
	eventMsg struct{ e api.Event }
	// connMsg says the event stream is open (err nil) or failed and is
	// retried after retry.
	connMsg struct {
		err   error
		retry time.Duration
	}
	listMsg struct {
		seq   uint64
		panes []api.PaneStatus
		err   error
	}
	paneMsg struct {
		seq  uint64
		addr string
		st   api.PaneStatus
		err  error
	}
	explainMsg struct {
		addr string
		st   api.PaneStatus
		err  error
	}
	// doneMsg is the end of an action a key started: what to tell the
	// person, and the pane's new status when there is one.
	doneMsg struct {
		text string
		err  error
		pane *paneMsg
		gone string // a pane detached
		quit bool
	}
	flushMsg struct{}
	tickMsg  struct{}
)

// conn is the state of the event stream.
type conn struct {
	up    bool
	err   string
	retry time.Duration
	since time.Time // of the current failure
}

// explainView is the pane shown by `e`.
type explainView struct {
	addr   string
	st     *api.PaneStatus
	err    string
	offset int
}

// Model is the dash. Use it through a pointer: Update changes it in place.
type Model struct {
	opts          Options
	now           time.Time
	width, height int

	rows     map[string]*row
	visible  []*row // sorted and filtered
	loaded   bool   // a list has come
	selected string // address of the selected row
	cursor   int    // its index in visible
	top      int    // first visible row on screen

	mode    mode
	filter  string
	message string
	isError bool
	confirm string // address to detach on y
	explain *explainView
	conn    conn
	fetch   string // why the last request failed, until one succeeds

	seq          uint64
	dirty        map[string]bool
	listDirty    bool
	flushPending bool
	lastFlush    time.Time

	// after delivers msg after d; tests replace it to see what is timed.
	after func(d time.Duration, msg tea.Msg) tea.Cmd

	view       string
	viewOK     bool
	stateCells map[stateCell]string // paintState's
}

var _ tea.Model = (*Model)(nil)

// New returns a dash that has not yet heard from the daemon.
func New(opts Options) *Model {
	opts = opts.withDefaults()
	return &Model{
		opts: opts, now: opts.Now(), width: 80, height: 24,
		rows: map[string]*row{}, dirty: map[string]bool{}, stateCells: map[stateCell]string{},
		after: func(d time.Duration, msg tea.Msg) tea.Cmd {
			return tea.Tick(d, func(time.Time) tea.Msg { return msg })
		},
	}
}

// Init starts the clock of the durations; the rows come when the event
// stream opens (connMsg).
func (m *Model) Init() tea.Cmd { return m.nextTick() }

// nextTick fires at the next whole second, so that every duration on
// screen moves together.
func (m *Model) nextTick() tea.Cmd {
	now := m.opts.Now()
	return m.after(now.Truncate(time.Second).Add(time.Second).Sub(now), tickMsg{})
}

// Update applies one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case eventMsg:
		// The event only marks what to read; the view changes when the
		// answer comes.
		return m, m.event(msg.e)
	case flushMsg:
		return m, m.flush()
	}
	m.viewOK = false
	m.now = m.opts.Now()
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		cmd = m.key(msg)
	case tickMsg:
		m.regroup()
		cmd = m.nextTick()
	case connMsg:
		cmd = m.connection(msg)
	case listMsg:
		m.applyList(msg)
	case paneMsg:
		m.applyPane(msg)
	case explainMsg:
		m.applyExplain(msg)
	case doneMsg:
		cmd = m.done(msg)
	}
	m.settle()
	return m, cmd
}

func (m *Model) connection(msg connMsg) tea.Cmd {
	if msg.err != nil {
		if m.conn.up || m.conn.since.IsZero() {
			m.conn.since = m.now
		}
		m.conn = conn{err: msg.err.Error(), retry: msg.retry, since: m.conn.since}
		return nil
	}
	// Open: whatever happened while it was not is read afresh.
	m.conn = conn{up: true}
	m.listDirty = true
	return m.scheduleFlush()
}

func (m *Model) applyList(msg listMsg) {
	if msg.err != nil {
		m.fetch = "list panes: " + msg.err.Error()
		return
	}
	m.fetch, m.loaded = "", true
	listed := make(map[string]bool, len(msg.panes))
	for _, st := range msg.panes {
		listed[st.Pane] = true
		m.store(msg.seq, st)
	}
	for addr, r := range m.rows {
		if !listed[addr] && r.seq < msg.seq {
			delete(m.rows, addr)
		}
	}
	labelRows(m.rows)
}

func (m *Model) applyPane(msg paneMsg) {
	switch {
	case errors.Is(msg.err, api.ErrNotControlled):
		if r := m.rows[msg.addr]; r != nil && r.seq < msg.seq {
			delete(m.rows, msg.addr)
			labelRows(m.rows)
		}
	case msg.err != nil:
		m.fetch = "read " + msg.addr + ": " + msg.err.Error()
	default:
		m.fetch = ""
		_, known := m.rows[msg.st.Pane]
		m.store(msg.seq, msg.st)
		if !known {
			labelRows(m.rows)
		}
	}
}

// store keeps st unless the row holds a newer answer.
func (m *Model) store(seq uint64, st api.PaneStatus) {
	r := m.rows[st.Pane]
	if r != nil && r.seq > seq {
		return
	}
	if r == nil {
		r = &row{label: safetext.Line(st.Target)}
		m.rows[st.Pane] = r
	}
	r.st, r.seq, r.fetched = st, seq, m.now
	r.show(classify(st, r.fetched, m.now))
}

func (m *Model) applyExplain(msg explainMsg) {
	x := m.explain
	if x == nil || x.addr != msg.addr {
		return
	}
	if msg.err != nil {
		x.err = msg.err.Error()
		return
	}
	st := msg.st
	x.st, x.err = &st, ""
}

func (m *Model) done(msg doneMsg) tea.Cmd {
	m.message, m.isError = msg.text, msg.err != nil
	if msg.err != nil {
		m.message = msg.err.Error()
	}
	if msg.pane != nil {
		m.applyPane(*msg.pane)
	}
	if msg.gone != "" {
		delete(m.rows, msg.gone)
		labelRows(m.rows)
	}
	if msg.quit && msg.err == nil {
		return tea.Quit
	}
	return nil
}

// regroup moves rows whose recent work has aged out.
func (m *Model) regroup() {
	for _, r := range m.rows {
		if g := classify(r.st, r.fetched, m.now); g != r.group {
			r.show(g)
		}
	}
}

// settle sorts and filters the rows, keeps the selection on its pane
// (or on the row that took its place) and the cursor on screen.
func (m *Model) settle() {
	filter := strings.ToLower(m.filter)
	m.visible = m.visible[:0]
	for _, r := range sortedRows(m.rows) {
		if r.matches(filter) {
			m.visible = append(m.visible, r)
		}
	}
	found := false
	for i, r := range m.visible {
		if r.st.Pane == m.selected {
			m.cursor, found = i, true
			break
		}
	}
	if !found {
		m.cursor = min(m.cursor, len(m.visible)-1)
		m.cursor = max(m.cursor, 0)
		m.selected = ""
		if len(m.visible) > 0 {
			m.selected = m.visible[m.cursor].st.Pane
		}
	}
	page := m.listHeight()
	m.top = min(m.top, m.cursor)
	if m.cursor >= m.top+page {
		m.top = m.cursor - page + 1
	}
	m.top = max(0, min(m.top, len(m.visible)-page))
}

// current returns the selected row, or nil.
func (m *Model) current() *row {
	if m.cursor < len(m.visible) {
		return m.visible[m.cursor]
	}
	return nil
}

// say shows text in the status bar until the next key.
func (m *Model) say(text string) {
	m.message, m.isError = text, false
}
