package tmux

import (
	"io"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The paced reader's calls at each slot are raw system calls: neither can
// block, and an ordinary system call wakes the Go runtime's monitor thread
// (sysmon) when it sleeps, which then polls every 20 µs while the slot is
// read. With raw calls a slot costs the daemon one wake-up of its own.

// bytesWaiting returns a function that says how many bytes the pipe f
// holds (FIONREAD, which Linux names TIOCINQ), so a reader can tell
// whether a read would block.
func bytesWaiting(f *os.File) func() (int, bool) {
	fd := f.Fd() // a blocking pipe already: Fd changes nothing
	return func() (int, bool) {
		var n int32
		_, _, errno := unix.RawSyscall(unix.SYS_IOCTL, fd, unix.TIOCINQ, uintptr(unsafe.Pointer(&n)))
		return int(n), errno == 0
	}
}

// readWaiting returns a function that reads from the pipe f, for when
// bytesWaiting said that it holds data: a pipe that holds data returns it
// at once, so with one reader the read never blocks.
func readWaiting(f *os.File) func(b []byte) (int, error) {
	fd := f.Fd()
	return func(b []byte) (int, error) {
		if len(b) == 0 {
			return 0, nil
		}
		for {
			n, _, errno := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch {
			case errno == unix.EINTR:
				continue
			case errno != 0:
				return 0, &os.PathError{Op: "read", Path: f.Name(), Err: errno}
			case n == 0:
				return 0, io.EOF
			}
			return int(n), nil
		}
	}
}

// outputPipeSize is what growPipe asks for: 1 MiB, the default of
// /proc/sys/fs/pipe-max-size.
const outputPipeSize = 1 << 20

// growPipe enlarges the pipe behind fd, so that output arriving between
// two paced reads never fills it and tmux never waits to write. A refusal
// (a lowered pipe-max-size, or the user's pipe quota) leaves the default.
func growPipe(fd int) {
	_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, outputPipeSize)
}
