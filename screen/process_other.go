//go:build !linux

package screen

// windowProcess cannot tell outside Linux.
func windowProcess(int, string) (Process, bool) { return Process{}, false }

// startTime cannot tell outside Linux.
func startTime(int) (uint64, bool) { return 0, false }
