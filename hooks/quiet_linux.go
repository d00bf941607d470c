package hooks

import (
	"bytes"
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// dirWatch notices other programs at work in the settings directory while
// codeman prepares its write: a file created, written or renamed into it.
// A program that replaces the settings file by rename creates and writes
// its temp file first, so a write of its that would land in the instant
// between codeman's last check and codeman's exchange shows here before.
type dirWatch struct {
	fd   int
	ours func(name string) bool
}

const dirWatchMask = unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_CLOSE_WRITE | unix.IN_DELETE

// watchDir starts watching dir; events for names ours accepts are
// codeman's own. A dir that cannot be watched gives a watch that never
// reports (the checks around the exchange still run).
func watchDir(dir string, ours func(string) bool) *dirWatch {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return &dirWatch{fd: -1}
	}
	if _, err := unix.InotifyAddWatch(fd, dir, dirWatchMask); err != nil {
		unix.Close(fd)
		return &dirWatch{fd: -1}
	}
	return &dirWatch{fd: fd, ours: ours}
}

// busy reports whether another program touched the dir since the watch
// began or since the last call.
func (w *dirWatch) busy() bool {
	if w.fd < 0 {
		return false
	}
	var buf [4096]byte
	busy := false
	for {
		n, err := unix.Read(w.fd, buf[:])
		if errors.Is(err, unix.EAGAIN) || n == 0 {
			return busy
		}
		if err != nil || n < 0 {
			return true
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			mask := binary.NativeEndian.Uint32(buf[off+4:])
			size := int(binary.NativeEndian.Uint32(buf[off+12:]))
			start := off + unix.SizeofInotifyEvent
			end := min(start+size, n)
			name := string(bytes.TrimRight(buf[start:end], "\x00"))
			if mask&unix.IN_Q_OVERFLOW != 0 || !w.ours(name) {
				busy = true
			}
			off = end
		}
	}
}

func (w *dirWatch) close() {
	if w.fd >= 0 {
		unix.Close(w.fd)
	}
}
