package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// conn is one `tmux -C` process attached to a session. Its reader
// goroutine parses the stream and hands events to the owning Client; the
// Client sends commands through it. Replies come back in the order the
// commands were written (tmux answers each control line with exactly one
// %begin block), so pending is a FIFO.
type conn struct {
	cmd    *exec.Cmd
	stdin  *os.File     // our end of the client's stdin; writes have deadlines
	stdout *os.File     // our end of the client's stdout, read by the reader only
	stderr bytes.Buffer // what tmux said before leaving; read after done

	writeMu sync.Mutex // orders writes, and so the FIFO

	mu      sync.Mutex
	pending []pendingCommand // one per command written, oldest first
	exitMsg string           // the reason of %exit, if one came

	ready chan struct{} // closed when the attach reply ended with %end
	done  chan struct{} // closed when the reader returned and the process was reaped
	err   error         // why the connection ended; read after done

	pace time.Duration // see ClientOptions.ReadPace; 0 or less reads as output comes
	kick chan struct{} // a command was written: end a paced wait
}

// pendingCommand is a command waiting for its reply.
type pendingCommand struct {
	reply chan Reply // gets the Reply, or is closed if the connection ends; nil drops it
	// relay re-reads the reply's lines as notifications. tmux 3.3 writes
	// %continue and %pause straight into the reply block of the
	// refresh-client -A that caused them (control.c), and refresh-client
	// prints nothing else, so any line of its reply is a notification.
	relay bool
}

// exitGrace is how long a client that closed its output gets to exit.
const exitGrace = 2 * time.Second

// readBuffer is the size of the control stream's read buffer.
const readBuffer = 64 << 10

// maxLine bounds one protocol line (an %output line of a very busy pane
// is a few KiB; capture-pane replies are split into lines).
const maxLine = 16 << 20

// startConn starts `tmux -C attach-session` for session on srv. The
// handler runs on the reader goroutine for every event but replies to
// this client's commands.
func startConn(srv Server, session string, pauseAfter, pace time.Duration, handle func(*conn, Event)) (*conn, error) {
	cmd := controlCommand(srv, session, pauseAfter)
	c := &conn{cmd: cmd, ready: make(chan struct{}), done: make(chan struct{}), pace: pace, kick: make(chan struct{}, 1)}
	cmd.Stderr = &lockedWriter{mu: &c.mu, w: &c.stderr}
	// A pipe of our own rather than StdinPipe: its write end takes
	// deadlines, so a wedged client cannot block a command forever.
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start tmux control client: %w", err)
	}
	cmd.Stdin = stdinR
	// Not StdoutPipe either: see outputPipe.
	stdoutR, stdoutW, err := outputPipe()
	if err != nil {
		closeAll(stdinR, stdinW)
		return nil, fmt.Errorf("start tmux control client: %w", err)
	}
	cmd.Stdout = stdoutW
	if err := cmd.Start(); err != nil {
		closeAll(stdinR, stdinW, stdoutR, stdoutW)
		if errors.Is(err, exec.ErrNotFound) {
			err = ErrNotInstalled
		}
		return nil, fmt.Errorf("start tmux control client: %w", err)
	}
	closeAll(stdinR, stdoutW) // the child has its own copies
	c.stdin, c.stdout = stdinW, stdoutR
	go c.read(handle)
	return c, nil
}

// controlCommand is the tmux process of one control connection.
func controlCommand(srv Server, session string, pauseAfter time.Duration) *exec.Cmd {
	flags := "ignore-size" // never resize anyone's windows
	if secs := int(pauseAfter / time.Second); secs > 0 {
		// tmux 3.2+: a pane more than secs behind is paused (%pause)
		// instead of the whole client being dropped as "too far behind".
		flags += ",pause-after=" + strconv.Itoa(secs)
	}
	// "=" asks for the session by its exact name, not a prefix match.
	argv := srv.globalArgs([]string{"-C", "attach-session", "-t", argvWord("=" + session), "-f", flags})
	cmd := exec.Command("tmux", argv...)
	cmd.Env = tmuxEnv()
	setProcessGroup(cmd)
	return cmd
}

// waitReady waits until tmux accepted the attach, the process ended or
// ctx is done.
func (c *conn) waitReady(ctx context.Context) error {
	select {
	case <-c.ready:
		return nil
	case <-c.done:
		return c.err
	case <-ctx.Done():
		return fmt.Errorf("attach tmux control client: %w", ctx.Err())
	}
}

// read is the reader goroutine. It owns the parser and, once the stream
// ends, reaps the process and closes done.
func (c *conn) read(handle func(*conn, Event)) {
	err := c.readLoop(handle)
	// A client that stopped making sense, or closed its output without
	// exiting, would keep Wait waiting: give it a moment, then kill it.
	grace := time.Duration(0)
	if errors.Is(err, io.EOF) {
		grace = exitGrace
	}
	kill := time.AfterFunc(grace, func() { killClient(c.cmd) })
	waitErr := c.cmd.Wait()
	kill.Stop()
	closeAll(c.stdout)
	c.mu.Lock()
	c.err = c.endError(err, waitErr)
	for _, pc := range c.pending {
		if pc.reply != nil {
			close(pc.reply)
		}
	}
	c.pending = nil
	c.mu.Unlock()
	close(c.done)
}

func (c *conn) readLoop(handle func(*conn, Event)) error {
	p := Parser{reuse: true} // subscribers do not keep output (Client.Subscribe)
	var src io.Reader = c.stdout
	if c.pace > 0 {
		// Real time: the pace is about the process's wake-ups, whatever
		// clock the client's own timing runs on.
		src = &pacedReader{
			r: c.stdout, pace: c.pace, urgent: c.commandWaiting, kick: c.kick,
			clock: clockwork.NewRealClock(), waiting: bytesWaiting(c.stdout), readNow: readWaiting(c.stdout),
		}
	}
	r := bufio.NewReaderSize(src, readBuffer)
	var long []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) > maxLine {
				return fmt.Errorf("read tmux control stream: line longer than %d bytes", maxLine)
			}
			long = append(long, chunk...)
			continue
		}
		if err != nil {
			return err // io.EOF when tmux left
		}
		line := chunk[:len(chunk)-1]
		if long != nil {
			line = append(long, line...)
			long = nil
		}
		ev, perr := p.Parse(line)
		if perr != nil {
			handle(c, Event{Kind: EventNotification, Name: "parse-error", Args: perr.Error()})
			continue
		}
		c.dispatch(ev, handle)
	}
}

// commandWaiting says whether a command still waits for its reply.
func (c *conn) commandWaiting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) > 0
}

// dispatch routes replies to their waiting commands and everything else to
// the handler.
func (c *conn) dispatch(ev Event, handle func(*conn, Event)) {
	switch {
	case ev.Kind == EventReply && !ev.Reply.FromClient():
		// The attach-session that started this client.
		if ev.Reply.Failed {
			c.mu.Lock()
			c.exitMsg = strings.Join(ev.Reply.Lines, "; ")
			c.mu.Unlock()
			return
		}
		select {
		case <-c.ready:
		default:
			close(c.ready)
		}
	case ev.Kind == EventReply:
		c.mu.Lock()
		var pc pendingCommand
		if len(c.pending) > 0 {
			pc, c.pending = c.pending[0], c.pending[1:]
		}
		c.mu.Unlock()
		if pc.relay && !ev.Reply.Failed {
			relayLines(ev.Reply.Lines, func(ev Event) { c.dispatch(ev, handle) })
			ev.Reply.Lines = nil
		}
		if pc.reply != nil {
			pc.reply <- ev.Reply // buffered: never blocks
		}
	case ev.Kind == EventExit:
		c.mu.Lock()
		if ev.Reason != "" {
			c.exitMsg = ev.Reason
		}
		c.mu.Unlock()
		handle(c, ev)
	case ev.Kind != EventNone:
		handle(c, ev)
	}
}

// endError says why the connection ended, in tmux's words when it gave any.
func (c *conn) endError(readErr, waitErr error) error {
	msg := c.exitMsg
	if msg == "" {
		msg = strings.TrimSpace(c.stderr.String())
	}
	switch {
	case msg != "" && isNoServer(msg):
		return fmt.Errorf("tmux control client: %w (%s)", ErrNoServer, msg)
	case msg != "":
		return fmt.Errorf("tmux control client exited: %s", msg)
	case readErr != nil && !errors.Is(readErr, io.EOF):
		return fmt.Errorf("tmux control client: %w", readErr)
	case waitErr != nil:
		return fmt.Errorf("tmux control client exited: %w", waitErr)
	}
	return errors.New("tmux control client exited")
}

// relayLines parses the lines of a reply that should have had none as
// notifications of their own.
func relayLines(lines []string, dispatch func(Event)) {
	var p Parser
	for _, l := range lines {
		if ev, err := p.Parse([]byte(l)); err == nil && ev.Kind != EventReply && ev.Kind != EventNone {
			dispatch(ev)
		}
	}
}

// send writes one command line. When pc.reply is not nil the command's
// Reply is sent on it (it must have room for one), or it is closed if the
// connection ends first.
func (c *conn) send(line string, pc pendingCommand) error {
	if line == "" || strings.ContainsAny(line, "\r\n") {
		// An empty line detaches a control client; a newline would be one.
		return fmt.Errorf("send control command %q: empty or multi-line", line)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.mu.Lock()
	select {
	case <-c.done:
		c.mu.Unlock()
		return fmt.Errorf("send control command: %w", c.err)
	default:
	}
	c.pending = append(c.pending, pc)
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}: // the reply should not wait out a pace
	default:
	}
	// The deadline only fails where pipes are not pollable; the write
	// then blocks until close kills the client.
	_ = c.stdin.SetWriteDeadline(time.Now().Add(DefaultExecTimeout))
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		// Part of the line may have gone out, and tmux would join it to
		// the next one: replies could no longer be matched in order. End
		// this connection; the client reconnects.
		killClient(c.cmd)
		return fmt.Errorf("send control command: %w", err)
	}
	return nil
}

// closeAll closes files whose close errors say nothing useful: pipe ends
// being abandoned after a failed start, or handed to a child already.
func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// command sends line and waits for its reply.
// With relay, the reply's lines are notifications (see pendingCommand).
func (c *conn) command(ctx context.Context, line string, relay bool) (Reply, error) {
	reply := make(chan Reply, 1)
	if err := c.send(line, pendingCommand{reply: reply, relay: relay}); err != nil {
		return Reply{}, err
	}
	nudge := time.NewTicker(replyNudgeAfter)
	defer nudge.Stop()
	for {
		select {
		case r, ok := <-reply:
			if !ok {
				<-c.done
				return Reply{}, fmt.Errorf("wait for tmux reply: %w", c.err)
			}
			return r, nil
		case <-nudge.C:
			// tmux 3.3 was seen, while a flood of output was queued, to
			// hold a reply until the client's next command came: send
			// one that changes nothing and whose reply is dropped.
			_ = c.send(nudgeCommand, pendingCommand{})
		case <-ctx.Done():
			return Reply{}, fmt.Errorf("wait for tmux reply: %w", ctx.Err())
		}
	}
}

// A command whose reply has not come after replyNudgeAfter gets a
// nudgeCommand written after it (see command).
const (
	replyNudgeAfter = 500 * time.Millisecond
	nudgeCommand    = "display-message -p codeman-nudge"
)

// close detaches: closing stdin makes tmux leave control mode. A client
// that has not gone after closeGrace is killed.
// It takes no lock, so a write stuck on a wedged client cannot block it:
// closing the file fails that write.
func (c *conn) close() {
	const closeGrace = time.Second
	closeAll(c.stdin) // a second close changes nothing
	select {
	case <-c.done:
		return
	case <-time.After(closeGrace):
	}
	killClient(c.cmd)
	<-c.done
}

// killClient kills the tmux client process. os.Process knows when the
// process was reaped (pidfd on Linux), so a late kill cannot hit a new
// process with the same pid; its error only says the process is gone.
func killClient(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
}

// pid returns the process id of the tmux client, for logs.
func (c *conn) pid() int { return c.cmd.Process.Pid }

// lockedWriter serialises writes to w with mu; stderr is copied by an
// os/exec goroutine while endError may read it.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
