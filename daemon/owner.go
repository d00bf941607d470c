package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/screen"
)

// owner names one running daemon. A pane records its owner (tmux: the
// @codeman-owner pane option), and a controller checks the record before
// every key it sends, so that two daemons, or a controller left behind,
// never both type into one pane.
//
// The pid and its start time name the process for good; the nonce tells
// apart two daemons in one process, as tests run them.
type owner struct {
	pid   int
	start uint64 // clock ticks since boot; 0 where the system does not tell
	nonce string
}

// running holds the nonces of the daemons of this process that run.
var running sync.Map

func newOwner() owner {
	b := make([]byte, 4)
	rand.Read(b) // never fails (crypto/rand)
	o := owner{pid: os.Getpid(), nonce: hex.EncodeToString(b)}
	o.start, _ = screen.ProcessStart(o.pid)
	return o
}

func (o owner) String() string { return fmt.Sprintf("%d-%d-%s", o.pid, o.start, o.nonce) }

// parseOwner reads an owner written by String.
func parseOwner(s string) (owner, bool) {
	f := strings.Split(s, "-")
	if len(f) != 3 || f[2] == "" {
		return owner{}, false
	}
	pid, err1 := strconv.Atoi(f[0])
	start, err2 := strconv.ParseUint(f[1], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return owner{}, false
	}
	return owner{pid: pid, start: start, nonce: f[2]}, true
}

// alive reports whether the daemon o names still runs. Unknown is alive:
// taking a pane from a live daemon is worse than waiting for a person.
func (o owner) alive() bool {
	if o.pid == os.Getpid() {
		_, ok := running.Load(o.nonce)
		return ok
	}
	if start, ok := screen.ProcessStart(o.pid); ok {
		return o.start == 0 || start == o.start
	}
	err := syscall.Kill(o.pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// OwnedError says which daemon owns a pane this one was asked to control.
type OwnedError struct {
	Pane string
	PID  int
}

func (e *OwnedError) Error() string {
	return fmt.Sprintf("%s is controlled by another codeman daemon (pid %d); detach it there or stop that daemon", e.Pane, e.PID)
}

func (e *OwnedError) Unwrap() error { return api.ErrNotOwner }
