package proc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Foreground names the processes of the foreground process group of the
// terminal that process pid runs on (the programs a person at that
// terminal types to), the group's leader first; nil when it cannot be
// read. A wrapper script that runs the agent without exec leads a group
// the agent is in; a shell the agent exited to is alone in its group.
func Foreground(pid int) []string {
	fields, ok := procStat(pid)
	if !ok {
		return nil
	}
	tpgid, err := strconv.Atoi(fields[5])
	if err != nil || tpgid <= 0 {
		return nil
	}
	names := []string{procName(tpgid)}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return names
	}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p == tpgid {
			continue
		}
		if f, ok := procStat(p); ok && f[2] == fields[5] {
			if name := procName(p); name != "" {
				names = append(names, name)
			}
		}
	}
	return names
}

// State is the state of process pid in /proc/PID/stat (R, S, D, T, t,
// Z...), or "" when it cannot be read.
func State(pid int) string {
	fields, ok := procStat(pid)
	if !ok {
		return ""
	}
	return fields[0]
}

// procStat returns the fields of /proc/PID/stat after the process name:
// state, ppid, pgrp, session, tty_nr, tpgid, ...
func procStat(pid int) ([]string, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, false
	}
	// The name in parentheses may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return nil, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	return fields, len(fields) >= 6
}

// procName is a process's program as tmux's pane_current_command names
// it: the base of its argv[0], else its comm.
func procName(pid int) string {
	if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		if argv0, _, _ := bytes.Cut(cmdline, []byte{0}); len(argv0) > 0 {
			return filepath.Base(string(argv0))
		}
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(comm))
}
