package simclaude_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"golang.org/x/sys/unix"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// waitTimeout bounds every wait on the program's screen or files.
const waitTimeout = 10 * time.Second

// ptyProc is the program running on a pty, its output rendered by the
// project's terminal emulator.
type ptyProc struct {
	t      *testing.T
	master *os.File
	cmd    *exec.Cmd
	mu     sync.Mutex
	term   *vt.Emulator
	read   chan struct{} // closed when the output ends
	exited chan error
}

// openPTY returns a pty pair of the given size.
func openPTY(t *testing.T, cols, rows int) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("skipping: no pty (/dev/ptmx): %v", err)
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("get pty number: %v", err)
	}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		t.Fatalf("set pty size: %v", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pty slave: %v", err)
	}
	return master, slave
}

// startPTY runs the test binary as sim-claude on a new pty.
func startPTY(t *testing.T, cols, rows int, args ...string) *ptyProc {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping pty test in -short mode")
	}
	master, slave := openPTY(t, cols, rows)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	cmd.Dir = t.TempDir()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sim-claude: %v", err)
	}
	slave.Close()
	p := &ptyProc{t: t, master: master, cmd: cmd, term: vt.NewEmulator(cols, rows), read: make(chan struct{}), exited: make(chan error, 1)}
	go p.copyOutput()
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill() // still running: the test failed early
		}
		<-p.read // the pty reports EIO once the program is gone
		master.Close()
	})
	return p
}

func (p *ptyProc) copyOutput() {
	defer close(p.read)
	buf := make([]byte, 32*1024)
	for {
		n, err := p.master.Read(buf)
		p.mu.Lock()
		_, _ = p.term.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// rows is the emulated screen, trailing blanks removed.
func (p *ptyProc) rows() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	rows := strings.Split(p.term.String(), "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return rows
}

func (p *ptyProc) send(s string) {
	p.t.Helper()
	if _, err := p.master.WriteString(s); err != nil {
		p.t.Fatalf("write to pty: %v", err)
	}
}

// waitFor polls the screen until cond holds, and dumps it on timeout.
func (p *ptyProc) waitFor(what string, cond func(rows []string) bool) {
	p.t.Helper()
	if err := wait.Until(what, waitTimeout, func() bool { return cond(p.rows()) }); err != nil {
		p.t.Fatalf("%v; screen:\n%s", err, strings.Join(p.rows(), "\n"))
	}
}

func (p *ptyProc) waitRow(want string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("row %q", want), func(rows []string) bool { return hasRow(rows, want) })
}

// waitExit waits for the program to exit and returns its exit code.
func (p *ptyProc) waitExit() int {
	p.t.Helper()
	select {
	case <-p.exited:
		<-p.read
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(waitTimeout):
		p.t.Fatalf("sim-claude did not exit; screen:\n%s", strings.Join(p.rows(), "\n"))
		return -1
	}
}

func (p *ptyProc) resize(cols, rows int) {
	p.t.Helper()
	p.mu.Lock()
	p.term.Resize(cols, rows)
	p.mu.Unlock()
	// The kernel sends SIGWINCH to the pty's foreground process group.
	if err := unix.IoctlSetWinsize(int(p.master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		p.t.Fatalf("resize pty: %v", err)
	}
}

func hasRow(rows []string, want string) bool {
	for _, r := range rows {
		if r == want {
			return true
		}
	}
	return false
}
