package screen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

// DefaultCaptureTimeout is how long a hardcopy may take to appear once
// screen was asked for it. 2s.
const DefaultCaptureTimeout = 2 * time.Second

// Waits between looks at a hardcopy file that is not complete yet,
// doubling from the first to the last, and how long a file whose row
// count is unexpected must stay the same size to count as complete.
const (
	captureFirstWait = time.Millisecond
	captureMaxWait   = 50 * time.Millisecond
	captureSettle    = 20 * time.Millisecond
)

// screenRewrites are the characters screen replaces in -X arguments.
const screenRewrites = "$^\\"

// errCaptureTimeout: screen did not write the hardcopy in time.
var errCaptureTimeout = errors.New("hardcopy did not appear in time")

// capturer takes hardcopies of one window into a private directory and
// reads them into a buffer it reuses.
type capturer struct {
	w       Window
	r       Runner
	clock   clockwork.Clock
	timeout time.Duration
	dir     string // private to this process: 0700, removed by close
	seq     uint64
	buf     []byte // the last hardcopy read
}

func newCapturer(w Window, r Runner, clock clockwork.Clock, timeout time.Duration, parent string) (*capturer, error) {
	// screen is handed absolute paths: its working directory is not ours.
	parent, err := filepath.Abs(parent)
	if err != nil {
		return nil, fmt.Errorf("create hardcopy directory: %w", err)
	}
	if strings.ContainsAny(parent, screenRewrites) {
		// The file names go to screen as -X arguments, which screen
		// rewrites: "$VAR" expanded, "^A" and "\001" made control bytes.
		return nil, fmt.Errorf("create hardcopy directory in %q: screen rewrites %q in command arguments; set TMPDIR to a plainer directory", parent, screenRewrites)
	}
	// screen writes the hardcopy itself, with its own umask: the directory
	// keeps it private.
	dir, err := os.MkdirTemp(parent, "codeman-screen-")
	if err != nil {
		return nil, fmt.Errorf("create hardcopy directory: %w", err)
	}
	return &capturer{w: w, r: r, clock: clock, timeout: timeout, dir: dir, buf: make([]byte, 0, 16<<10)}, nil
}

func (c *capturer) close() error {
	if err := os.RemoveAll(c.dir); err != nil {
		return fmt.Errorf("remove hardcopy directory: %w", err)
	}
	return nil
}

// capture asks screen for a hardcopy of the window and returns its bytes,
// valid until the next capture. height is the window height last seen
// (0 when unknown): a file with that many rows is complete.
func (c *capturer) capture(ctx context.Context, height int) ([]byte, error) {
	c.seq++
	// A name per request: a hardcopy that arrives after its request timed
	// out must not be taken for a later one.
	path := filepath.Join(c.dir, "hardcopy-"+strconv.FormatUint(c.seq, 10))
	// The file exists, empty and 0600, before screen opens it, so that the
	// screen is never readable by others, not even for an instant.
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("capture %s: %w", c.w.Address(), err)
	}
	defer os.Remove(path) // read or abandoned, the file is not needed again
	// hardcopy without -h: the visible rows only, no scrollback.
	if err := send(ctx, c.r, c.w, "hardcopy", path); err != nil {
		return nil, fmt.Errorf("capture %s: %w", c.w.Address(), err)
	}
	if err := c.waitComplete(ctx, path, height); err != nil {
		return nil, fmt.Errorf("capture %s: %w", c.w.Address(), err)
	}
	return c.buf, nil
}

// waitComplete reads path until it holds a whole hardcopy. `screen -X`
// returns once the session has the request, before the session writes
// the file, so the file fills a moment later, in pieces when it is large.
// It is complete with `height` rows, or, when the height is unknown or
// changed, once it ends a row and has not grown for captureSettle.
func (c *capturer) waitComplete(ctx context.Context, path string, height int) error {
	start := c.clock.Now()
	deadline := start.Add(c.timeout)
	wait := captureFirstWait
	lastLen, lastChange := -1, start
	for {
		if err := c.read(path); err != nil {
			return err
		}
		now := c.clock.Now()
		n := len(c.buf)
		if n != lastLen {
			lastLen, lastChange = n, now
		}
		if n > 0 && c.buf[n-1] == '\n' {
			rows := bytes.Count(c.buf, []byte{'\n'})
			if rows == height || (rows == height+1 && hasAppendHeader(c.buf)) || now.Sub(lastChange) >= captureSettle {
				return nil
			}
		}
		if !now.Before(deadline) {
			return errCaptureTimeout
		}
		if err := respawn.Sleep(ctx, c.clock, wait); err != nil {
			return err
		}
		wait = min(2*wait, captureMaxWait)
	}
}

// read reads the whole file into c.buf, reusing its memory.
func (c *capturer) read(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read hardcopy: %w", err)
	}
	defer f.Close()
	c.buf = c.buf[:0]
	for {
		if len(c.buf) == cap(c.buf) {
			c.buf = append(c.buf, 0)[:len(c.buf)]
		}
		n, err := f.Read(c.buf[len(c.buf):cap(c.buf)])
		c.buf = c.buf[:len(c.buf)+n]
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read hardcopy: %w", err)
		}
	}
}

func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("create hardcopy file: %w", err)
	}
	return f.Close()
}

// hasAppendHeader reports whether a hardcopy starts with the ">=====<"
// row that screen writes before the screen when `hardcopy_append on` is
// set and the file exists, as ours always does.
func hasAppendHeader(b []byte) bool {
	row, _, _ := bytes.Cut(b, []byte{'\n'})
	return len(row) >= 2 && row[0] == '>' && row[len(row)-1] == '<' &&
		len(bytes.Trim(row[1:len(row)-1], "=")) == 0
}

// trimAppendHeader drops that row.
func trimAppendHeader(b []byte) []byte {
	if !hasAppendHeader(b) {
		return b
	}
	_, rest, _ := bytes.Cut(b, []byte{'\n'})
	return rest
}
