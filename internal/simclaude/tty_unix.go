package simclaude

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// terminal is the tty (or pipe) the program runs on: raw mode while it
// runs, the saved settings restored on close.
type terminal struct {
	in, out *os.File
	inFd    int
	saved   *unix.Termios // nil when input is not a terminal
	wakeR   int           // self-pipe that ends a blocked read
	wakeW   int
}

// openTerminal puts a tty input into raw mode (cfmakeraw): no echo, no
// line editing, no signals from Ctrl-C, no output post-processing.
func openTerminal(in, out *os.File) (*terminal, error) {
	t := &terminal{in: in, out: out, inFd: rawFd(in)}
	if t.inFd < 0 {
		return nil, errors.New("open terminal: input has no file descriptor")
	}
	if saved, err := unix.IoctlGetTermios(t.inFd, unix.TCGETS); err == nil {
		if err := setRaw(t.inFd, saved); err != nil {
			return nil, err
		}
		t.saved = saved
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.restore()
		return nil, fmt.Errorf("open wake pipe: %w", err)
	}
	t.wakeR, t.wakeW = p[0], p[1]
	return t, nil
}

// MakeRaw puts the tty fd into raw mode and returns what restores its
// settings; programs that stand in for Claude Code in a pane use it.
func MakeRaw(fd int) (restore func(), err error) {
	saved, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, fmt.Errorf("read terminal settings: %w", err)
	}
	if err := setRaw(fd, saved); err != nil {
		return nil, err
	}
	// The pane may be gone on the way out; nothing is left to restore then.
	return func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, saved) }, nil
}

// setRaw applies cfmakeraw to a copy of saved.
func setRaw(fd int, saved *unix.Termios) error {
	raw := *saved
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return fmt.Errorf("set raw mode: %w", err)
	}
	return nil
}

// rawFd returns f's descriptor without switching it to blocking mode, as
// (*os.File).Fd would.
func rawFd(f *os.File) int {
	sc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	if err := sc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return -1
	}
	return fd
}

// size is the window size of the tty, if it is one.
func (t *terminal) size() (cols, rows int, ok bool) {
	for _, fd := range []int{rawFd(t.out), t.inFd} {
		if ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil && ws.Col > 0 && ws.Row > 0 {
			return int(ws.Col), int(ws.Row), true
		}
	}
	return 0, 0, false
}

// readLoop sends what arrives on the input to chunks until the input ends
// or close is called; then it sends the error and returns.
func (t *terminal) readLoop(chunks chan<- []byte, errs chan<- error) {
	buf := make([]byte, 64*1024)
	fds := []unix.PollFd{{Fd: int32(t.inFd), Events: unix.POLLIN}, {Fd: int32(t.wakeR), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			errs <- fmt.Errorf("poll input: %w", err)
			return
		}
		if fds[1].Revents != 0 {
			errs <- io.EOF
			return
		}
		n, err := unix.Read(t.inFd, buf)
		switch {
		case errors.Is(err, unix.EINTR), errors.Is(err, unix.EAGAIN):
			continue
		case err != nil:
			errs <- fmt.Errorf("read input: %w", err)
			return
		case n == 0:
			errs <- io.EOF
			return
		}
		chunks <- append([]byte(nil), buf[:n]...)
	}
}

// stopReading ends readLoop.
func (t *terminal) stopReading() {
	_, _ = unix.Write(t.wakeW, []byte{0}) // the pipe is empty; this cannot block
}

// restore gives the tty its settings back and closes the wake pipe.
func (t *terminal) restore() {
	if t.saved != nil {
		// The tty may be gone (pane killed); nothing is left to restore then.
		_ = unix.IoctlSetTermios(t.inFd, unix.TCSETS, t.saved)
	}
	if t.wakeW > 0 {
		unix.Close(t.wakeR)
		unix.Close(t.wakeW)
	}
}
