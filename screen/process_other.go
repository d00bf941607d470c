//go:build !linux

package screen

// windowProcess cannot tell outside Linux.
func windowProcess(int, string) (Process, bool) { return Process{}, false }
