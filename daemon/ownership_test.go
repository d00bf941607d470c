package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// quietWindow is how long a test watches a pane that must get no input:
// longer than a turn's end takes to confirm and the first step to go out
// with fastConfig.
const quietWindow = 6 * time.Second

// inputsAfter returns the input that reached the session after t.
func inputsAfter(t *testing.T, log string, after time.Time) []simclaude.LogEntry {
	t.Helper()
	entries, err := simclaude.ReadLog(log)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []simclaude.LogEntry
	for _, e := range entries {
		switch e.Kind {
		case simclaude.LogSubmit, simclaude.LogQueued, simclaude.LogKey, simclaude.LogPaste:
			if e.T.After(after) {
				out = append(out, e)
			}
		}
	}
	return out
}

// health returns the daemon's health.
func (r *rig) health() api.Health {
	r.t.Helper()
	h, err := r.client.Health(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// waitControllers waits until exactly n controller loops run and n panes
// are listed.
func (r *rig) waitControllers(n int) {
	r.t.Helper()
	r.waitFor(fmt.Sprintf("%d controllers", n), 10*time.Second, func() bool {
		h := r.health()
		return h.Controllers == n && h.Panes == n
	})
}

// Twenty attaches of one pane at once start one controller; after a
// detach nothing types into the pane (an orphan controller used to).
func TestOwnership_ConcurrentAttachesOneController(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("work", "hello")
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr}); err != nil {
				t.Errorf("attach: %v", err)
			}
		}()
	}
	wg.Wait()
	r.waitControllers(1)
	if err := r.client.Detach(context.Background(), addr); err != nil {
		t.Fatal(err)
	}
	detached := time.Now()
	r.waitControllers(0)
	time.Sleep(quietWindow)
	if in := inputsAfter(t, log, detached); len(in) > 0 {
		t.Fatalf("input after detach: %+v", in)
	}
}

// Toggles at once (a double press of the key) end on or off, never with
// two controllers, and the pane's flag says which.
func TestOwnership_ConcurrentToggles(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "hello")
	id := addr[strings.LastIndexByte(addr, ':')+1:]
	for round, n := range []int{2, 2, 3, 5} {
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := r.client.Toggle(context.Background(), api.AttachRequest{Pane: addr}); err != nil {
					t.Errorf("toggle: %v", err)
				}
			}()
		}
		wg.Wait()
		on := 0
		if _, err := r.client.Pane(context.Background(), addr, 0); err == nil {
			on = 1
		} else if !errors.Is(err, api.ErrNotControlled) {
			t.Fatalf("round %d: %v", round, err)
		}
		r.waitControllers(on)
		flag := strings.TrimSpace(r.tmux.Tmux("show-options", "-p", "-q", "-v", "-t", id, "@codeman"))
		if (flag != "") != (on == 1) {
			t.Fatalf("round %d: controlled %d but @codeman = %q", round, on, flag)
		}
	}
}

// One pane reached by several spellings of its server's socket ("//",
// "./", a symlinked directory) is one pane with one controller, and hooks
// that name it either way reach that controller.
func TestOwnership_OnePaneOneAddress(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "hello")
	socket := r.tmux.Socket()
	dir, name := filepath.Split(socket)
	link := filepath.Join(t.TempDir(), "l")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	id := addr[strings.LastIndexByte(addr, ':')+1:]
	spellings := []string{
		addr,
		"tmux:" + strings.TrimSuffix(dir, "/") + "//" + name + ":" + id,
		"tmux:" + dir + "./" + name + ":" + id,
		"tmux:" + filepath.Join(link, name) + ":" + id,
	}
	var wg sync.WaitGroup
	for _, s := range spellings {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: s})
			if err != nil {
				t.Errorf("attach %s: %v", s, err)
			} else if st.Pane != addr {
				t.Errorf("attach %s: pane %s, want %s", s, st.Pane, addr)
			}
		}()
	}
	wg.Wait()
	r.waitControllers(1)
	for _, s := range spellings {
		if _, err := r.client.Pane(context.Background(), s, 0); err != nil {
			t.Errorf("status of %s: %v", s, err)
		}
	}
}

// A second daemon of the user is refused even from an environment with
// another runtime dir, and a client in that environment finds the first.
func TestOwnership_OneDaemonWhateverTheRuntimeDir(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	env := map[string]string{"XDG_RUNTIME_DIR": "", "TMPDIR": t.TempDir(), "XDG_STATE_HOME": r.env["XDG_STATE_HOME"], "HOME": r.env["HOME"]}
	paths, err := api.DefaultPaths(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if paths.Socket == r.paths.Socket {
		t.Fatalf("the second environment has the same socket %s", paths.Socket)
	}
	err = New(Options{Paths: paths, ConfigPath: r.config}).Run(context.Background())
	if !errors.Is(err, api.ErrRunning) || !strings.Contains(err.Error(), r.paths.Socket) {
		t.Fatalf("second daemon: %v; want ErrRunning naming %s", err, r.paths.Socket)
	}
	c, err := api.Connect(context.Background(), paths, "")
	if err != nil {
		t.Fatalf("connect from the other environment: %v", err)
	}
	h, err := c.Health(context.Background())
	if err != nil || h.Socket != r.paths.Socket {
		t.Fatalf("health from the other environment: %+v, %v", h, err)
	}
}

// Two daemons that do run at once (their state dirs differ) never both
// control one pane: the pane names its owner, and the second is refused
// until the first lets go.
func TestOwnership_TwoDaemonsNeverShareAPane(t *testing.T) {
	t.Parallel()
	a := newRig(t)
	b := newRigOn(t, a.tmux)
	addr, log := a.session("work", "hello")
	a.attach(addr)
	_, err := b.client.Attach(context.Background(), api.AttachRequest{Pane: addr})
	if !errors.Is(err, api.ErrNotOwner) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Fatalf("second daemon's attach: %v; want ErrNotOwner naming pid %d", err, os.Getpid())
	}
	b.waitControllers(0)
	// The second daemon adopts nothing of the first's on a restart either.
	b.stopDaemon()
	b.start()
	if st, err := b.client.Pane(context.Background(), addr, 0); err != nil || !strings.Contains(st.Problem, "another codeman daemon") {
		t.Fatalf("second daemon after restart: %+v, %v", st, err)
	}
	b.waitControllers(0)

	if err := a.client.Detach(context.Background(), addr); err != nil {
		t.Fatal(err)
	}
	if _, err := b.client.Attach(context.Background(), api.AttachRequest{Pane: addr}); err != nil {
		t.Fatalf("attach after the first daemon let go: %v", err)
	}
	b.waitControllers(1)
	a.waitControllers(0)
	assertNothingWhileBusy(t, log)
}

// A tmux server restarted under the same name reuses pane ids: the new
// server's %0 gets nothing from the old one's controller.
func TestOwnership_ServerRestartedUnderTheSameName(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "a long first task")
	r.attach(addr)
	r.killTmuxServer()
	restarted := time.Now()
	addr2, log2 := r.session("work", "hello")
	if addr2 != addr {
		t.Fatalf("the new server's pane is %s, want the same address %s", addr2, addr)
	}
	r.waitControllers(0)
	time.Sleep(quietWindow)
	if in := inputsAfter(t, log2, restarted); len(in) > 0 {
		t.Fatalf("input reached the new server's pane: %+v", in)
	}
}

// A daemon that starts with a bad config lists the enabled pane with the
// reason and marks it on the status line; fixing the config adopts it
// without a restart. Its --set values, newlines and commas kept, survive.
func TestOwnership_AdoptionFailsVisibly(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "a long first task")
	id := addr[strings.LastIndexByte(addr, ':')+1:]
	sets := []string{"update_prompt=first line\nsecond line, with a comma", "kickstart_prompt="}
	r.attach(addr, sets...)
	r.stopDaemon()
	if err := os.WriteFile(r.config, []byte("[respawn]\ncompletion_confirm = \"soon\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.start()
	st, err := r.client.Pane(context.Background(), addr, 0)
	if err != nil || !strings.Contains(st.Problem, "completion_confirm") {
		t.Fatalf("pane after a start with a bad config: %+v, %v", st, err)
	}
	if panes, _ := r.client.Panes(context.Background()); len(panes) != 1 {
		t.Fatalf("status lists %d panes, want the one not controlled", len(panes))
	}
	if state := strings.TrimSpace(r.tmux.Tmux("show-options", "-p", "-v", "-t", id, "@codeman-state")); state != "not controlled" {
		t.Fatalf("@codeman-state = %q", state)
	}
	if err := os.WriteFile(r.config, []byte(fastConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	r.waitFor("adoption after the config was fixed", 10*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && st.Problem == "" && st.Status.State != ""
	})
	st, _ = r.client.Pane(context.Background(), addr, 0)
	if fmt.Sprint(st.Sets) != fmt.Sprint(sets) {
		t.Fatalf("sets after adoption %q, want %q", st.Sets, sets)
	}
	r.waitControllers(1)
}

// An attach that fails changes nothing: not the running controller's
// settings, not the pane's record.
func TestOwnership_FailedAttachChangesNothing(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "hello")
	id := addr[strings.LastIndexByte(addr, ':')+1:]
	r.attach(addr, "kickstart_prompt=one")
	options := func() string {
		return r.tmux.Tmux("show-options", "-p", "-t", id, "@codeman") + r.tmux.Tmux("show-options", "-p", "-t", id, "@codeman-set")
	}
	before := options()
	for _, sets := range [][]string{{"kickstart_prompt=two", "completion_confirm=soon"}, {"kickstart_prompt=two", "no_such_key=1"}} {
		if _, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr, Sets: sets}); err == nil {
			t.Fatalf("attach with %q succeeded", sets)
		}
	}
	if _, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr, Profile: "no-such-profile"}); err == nil {
		t.Fatal("attach with a missing profile succeeded")
	}
	st, err := r.client.Pane(context.Background(), addr, 0)
	if err != nil || fmt.Sprint(st.Sets) != "[kickstart_prompt=one]" || st.Profile != "" {
		t.Fatalf("pane after failed attaches: sets %q profile %q, %v", st.Sets, st.Profile, err)
	}
	if after := options(); after != before {
		t.Fatalf("pane options changed:\n%s\nwas:\n%s", after, before)
	}
}

// A window number screen reused for another program is not adopted: it
// is listed with the reason, forgotten, and gets no input.
func TestOwnership_ReusedScreenWindowNotAdopted(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.screenSession("a long first task")
	w, _ := screen.ParseAddress(addr)
	r.waitFor("the window's program", 10*time.Second, func() bool { _, ok := screen.WindowProcess(w); return ok })
	// 00 is window 0 too: one window, one controller.
	alias := "screen:" + w.Session + ":00"
	if st, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: alias}); err != nil || st.Pane != addr {
		t.Fatalf("attach %s: %+v, %v", alias, st, err)
	}
	r.attach(addr)
	r.waitControllers(1)
	old, ok := screen.WindowProcess(w)
	if !ok {
		t.Skip("the window's program cannot be identified on this system (needs /proc)")
	}
	r.stopDaemon()

	// Window 0 closes; a new window takes its number.
	exe, _ := os.Executable()
	log2 := filepath.Join(t.TempDir(), "second.jsonl")
	run := func(args ...string) {
		if out, err := exec.Command("screen", append([]string{"-S", w.Session}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("screen %q: %v: %s", args, err, out)
		}
	}
	run("-X", "screen", "-t", "keep", "1", "sh", "-c", "sleep 600")
	run("-p", "0", "-X", "kill")
	run("-X", "screen", "-t", "new", "0", "env", "CODEMAN_TEST_ROLE=sim", "LANG=C.UTF-8", exe, "--work", "1s", "--log", log2, "--prompt", "hello")
	r.waitFor("the new program in window 0", 10*time.Second, func() bool {
		now, ok := screen.WindowProcess(w)
		_, err := os.Stat(log2)
		return err == nil && ok && now != old
	})
	started := time.Now()
	r.start()
	st, err := r.client.Pane(context.Background(), addr, 0)
	if err != nil || !strings.Contains(st.Problem, "another program") {
		t.Fatalf("reused window after a restart: %+v, %v", st, err)
	}
	state, err := screen.LoadState(r.paths.ScreenState)
	if err != nil || len(state.Windows) != 0 {
		t.Fatalf("state file after the window was replaced: %+v, %v", state, err)
	}
	r.waitControllers(0)
	time.Sleep(quietWindow)
	if in := inputsAfter(t, log2, started); len(in) > 0 {
		t.Fatalf("input reached the window's new program: %+v", in)
	}
}

// tmux's own view agrees with the daemon's after a pane's lifecycle: the
// owner record is removed on detach.
func TestOwnership_DetachRemovesOwner(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "hello")
	srv, id, _ := tmux.ParseAddress(addr)
	r.attach(addr)
	if v, ok, _ := srv.PaneOption(context.Background(), id, optionOwner); !ok || v != r.health().Owner {
		t.Fatalf("@codeman-owner = %q (set %t), want %q", v, ok, r.health().Owner)
	}
	if err := r.client.Detach(context.Background(), addr); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []string{optionOwner, tmux.OptionEnabled, optionSets} {
		if v, ok, _ := srv.PaneOption(context.Background(), id, opt); ok {
			t.Errorf("%s = %q after detach", opt, v)
		}
	}
}

// An owner record left by a daemon that died (kill -9) is taken over; one
// that is not codeman's is refused with what to do, and nothing is
// controlled.
func TestOwnership_OwnerRecordLeftBehind(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "hello")
	id := addr[strings.LastIndexByte(addr, ':')+1:]
	dead := owner{pid: 1 << 22, start: 1, nonce: "dead"} // above Linux's pid_max
	r.tmux.Tmux("set-option", "-p", "-t", id, optionOwner, dead.String())
	r.attach(addr)
	if v := strings.TrimSpace(r.tmux.Tmux("show-options", "-p", "-v", "-t", id, optionOwner)); v != r.health().Owner {
		t.Fatalf("@codeman-owner = %q after taking over a dead daemon's pane, want %q", v, r.health().Owner)
	}
	if err := r.client.Detach(context.Background(), addr); err != nil {
		t.Fatal(err)
	}

	r.tmux.Tmux("set-option", "-p", "-t", id, optionOwner, "somebody else")
	_, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr})
	if err == nil || !strings.Contains(err.Error(), optionOwner) || !strings.Contains(err.Error(), "set-option -p -u") {
		t.Fatalf("attach over a foreign owner record: %v", err)
	}
	r.waitControllers(0)
}
