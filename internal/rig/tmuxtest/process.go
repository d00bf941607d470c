package tmuxtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// A server whose socket file was removed answers no tmux command, so
// kill-server cannot reach it. Close finds such servers by process instead:
// the pids tmux reported when the test started them, and on Linux any
// "tmux: server" process started with this server's -L name, which a test
// that restarted the server with a command of its own leaves unrecorded.

// process is one tmux server process: a pid and its start time, since
// pids are reused.
type process struct {
	pid   int
	start uint64
}

// record keeps the server pid tmux printed, for Close.
func (s *Server) record(pid string) {
	n, err := strconv.Atoi(strings.TrimSpace(pid))
	if err != nil || n <= 0 {
		return
	}
	_, start, ok := procStat(n)
	if !ok {
		return // no /proc: kill-server by socket is all Close can do
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := process{pid: n, start: start}
	if !slices.Contains(s.procs, p) {
		s.procs = append(s.procs, p)
	}
}

// running returns the server's processes still alive: those recorded and
// those found by their -L name.
func (s *Server) running() []process {
	s.mu.Lock()
	procs := slices.Clone(s.procs)
	s.mu.Unlock()
	for _, p := range s.byName() {
		if !slices.Contains(procs, p) {
			procs = append(procs, p)
		}
	}
	return slices.DeleteFunc(procs, func(p process) bool { return !p.alive() })
}

// byName finds every live tmux server process started with -L s.name.
func (s *Server) byName() []process {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []process
	for _, dir := range dirs {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			continue
		}
		comm, err := os.ReadFile(dir + "/comm")
		if err != nil || string(comm) != "tmux: server\n" {
			continue
		}
		// The server keeps the argv of the client that started it.
		cmdline, err := os.ReadFile(dir + "/cmdline")
		if err != nil {
			continue
		}
		argv := strings.Split(string(bytes.TrimSuffix(cmdline, []byte{0})), "\x00")
		if i := slices.Index(argv, "-L"); i < 0 || i+1 >= len(argv) || argv[i+1] != s.name {
			continue
		}
		if _, start, ok := procStat(pid); ok {
			out = append(out, process{pid: pid, start: start})
		}
	}
	return out
}

// ClientProcesses describes the processes other than servers that name
// this server by -L name or socket path, as "pid: argv": for a test to
// say what keeps a server from exiting after kill-server (it waits for
// its last client). It finds none without /proc.
func (s *Server) ClientProcesses() []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, dir := range dirs {
		comm, err := os.ReadFile(dir + "/comm")
		if err != nil || string(comm) == "tmux: server\n" {
			continue
		}
		cmdline, err := os.ReadFile(dir + "/cmdline")
		if err != nil {
			continue
		}
		argv := strings.Split(string(bytes.TrimSuffix(cmdline, []byte{0})), "\x00")
		if !slices.Contains(argv, s.name) && !slices.Contains(argv, s.socket) {
			continue
		}
		out = append(out, filepath.Base(dir)+": "+strings.Join(argv, " "))
	}
	return out
}

// alive reports whether p still runs: same pid and start time, and not a
// zombie waiting for its parent.
func (p process) alive() bool {
	state, start, ok := procStat(p.pid)
	return ok && start == p.start && state != "Z"
}

// killLeft kills, with SIGKILL, the server processes that outlived
// kill-server, and waits until they are gone.
func (s *Server) killLeft() {
	left := s.running()
	if len(left) == 0 {
		return
	}
	// A server exits once its last client has gone: name the clients
	// that kept it.
	clients := s.ClientProcesses()
	for _, p := range left {
		s.t.Logf("tmuxtest: tmux server %s (pid %d) outlived kill-server (its socket %s removed, or clients %q still connected); killing it",
			s.name, p.pid, s.socket, clients)
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
	// By the processes killed, not by name alone: an exiting process's
	// argv is gone from /proc before it is.
	err := wait.Until(fmt.Sprintf("tmux server %s to exit after SIGKILL", s.name), 5*time.Second, func() bool {
		return !slices.ContainsFunc(left, process.alive) && len(s.running()) == 0
	})
	if err != nil {
		s.t.Errorf("tmuxtest: %v", err)
	}
}

// procStat reads the state (field 3) and start time (field 22) of
// /proc/PID/stat; ok is false without /proc or without the process.
func procStat(pid int) (state string, start uint64, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return "", 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3 // fields 1 and 2 come before the ')'
	if len(fields) <= startField {
		return "", 0, false
	}
	start, err = strconv.ParseUint(fields[startField], 10, 64)
	return fields[0], start, err == nil
}
