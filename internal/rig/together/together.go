// Package together races separate processes: a test starts copies of its
// own binary that each get ready, wait until all of them are, and then go
// at once, so that what they do to a shared file overlaps as it does when
// a person runs a command in two shells. Only tests import it.
//
// The test binary's TestMain runs the child's side (Wait, then the work)
// when the environment asks for it, and the test calls Run:
//
//	func TestMain(m *testing.M) {
//		if op := os.Getenv(envOp); op != "" {
//			together.Wait()
//			os.Exit(doOp(op))
//		}
//		os.Exit(m.Run())
//	}
package together

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// ReadyTimeout bounds how long Run waits for every child to be ready.
const ReadyTimeout = time.Minute

// Wait is a child's side: it says it is ready and returns once Run lets
// every child go.
func Wait() {
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// Run starts n copies of the test binary, running no test, with env added
// to the environment, and lets them go at once when all are ready; it
// fails the test unless each exits 0.
func Run(t testing.TB, n int, env ...string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type child struct {
		cmd    *exec.Cmd
		stdin  io.Closer
		stderr strings.Builder
	}
	children := make([]*child, n)
	ready := make(chan error, n)
	for i := range children {
		c := &child{cmd: exec.Command(self, "-test.run=^$")}
		c.cmd.Env = append(os.Environ(), env...)
		c.cmd.Stderr = &c.stderr
		if c.stdin, err = c.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children[i] = c
		go func() {
			line, err := bufio.NewReader(out).ReadString('\n')
			if err == nil && line != "ready\n" {
				err = fmt.Errorf("child said %q", line)
			}
			ready <- err
			_, _ = io.Copy(io.Discard, out)
		}()
	}
	deadline := time.After(ReadyTimeout)
	for range children {
		select {
		case err := <-ready:
			if err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatalf("children not ready after %s", ReadyTimeout)
		}
	}
	for _, c := range children {
		c.stdin.Close()
	}
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, c.stderr.String())
		}
	}
}
