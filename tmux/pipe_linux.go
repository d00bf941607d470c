package tmux

import (
	"os"

	"golang.org/x/sys/unix"
)

// bytesWaiting returns a function that says how many bytes the pipe f
// holds (FIONREAD, which Linux names TIOCINQ), so a reader can tell
// whether a read would block.
func bytesWaiting(f *os.File) func() (int, bool) {
	fd := int(f.Fd()) // a blocking pipe already: Fd changes nothing
	return func() (int, bool) {
		n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
		return n, err == nil
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
