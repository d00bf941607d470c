package screen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// windowProcess reads /proc: the children of every thread of the screen
// process, then each child's environment and start time.
func windowProcess(server int, window string) (Process, bool) {
	lists, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", server))
	// WINDOW=N as the first variable, or after another one's NUL.
	first := []byte("WINDOW=" + window + "\x00")
	later := append([]byte{0}, first...)
	for _, list := range lists {
		b, err := os.ReadFile(list)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(field)
			if err != nil {
				continue
			}
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			if err != nil || !bytes.HasPrefix(env, first) && !bytes.Contains(env, later) {
				continue
			}
			if start, ok := startTime(pid); ok {
				return Process{PID: pid, Start: start}, true
			}
		}
	}
	return Process{}, false
}

// exited reports whether p no longer runs: no process has its pid and
// start time, or it is a zombie its parent has not reaped yet.
func exited(p Process) bool {
	state, start, ok := stat(p.PID)
	return !ok || start != p.Start || state == "Z"
}

// startTime reads field 22 of /proc/PID/stat, counted after the command
// name, which may itself hold spaces and parentheses.
func startTime(pid int) (uint64, bool) {
	_, start, ok := stat(pid)
	return start, ok
}

// stat reads the state (field 3) and the start time (field 22) of
// /proc/PID/stat.
func stat(pid int) (state string, start uint64, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3 // fields 1 and 2 are before the ')', field 3 is the first after
	if len(fields) <= startField {
		return "", 0, false
	}
	start, err = strconv.ParseUint(fields[startField], 10, 64)
	return fields[0], start, err == nil
}
