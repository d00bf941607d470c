//go:build !linux

package tmux

import "os"

// bytesWaiting cannot tell outside Linux; the reader just reads.
func bytesWaiting(*os.File) func() (int, bool) {
	return func() (int, bool) { return 0, false }
}

// readWaiting is not needed where bytesWaiting cannot tell.
func readWaiting(*os.File) func([]byte) (int, error) { return nil }

// growPipe leaves the pipe as it is outside Linux.
func growPipe(int) {}
