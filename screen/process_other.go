//go:build !linux

package screen

// windowProcess cannot tell outside Linux.
func windowProcess(int, string) (Process, bool) { return Process{}, false }

// startTime cannot tell outside Linux.
func startTime(int) (uint64, bool) { return 0, false }

// exited cannot tell outside Linux, where no program is recorded.
func exited(Process) bool { return false }
