package screen_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/screen"
)

// queryMain is a program that asks the session args[0] for the number of
// its window 0 from args[1] goroutines at once, as `codeman` resolving
// its own window does, once it reads a line from stdin. It prints every
// failure and exits 1 when there was one.
func queryMain(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: query SESSION GOROUTINES")
		return 2
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	failed := false
	for _, err := range queryConcurrently(args[0], n) {
		fmt.Println(err)
		failed = true
	}
	if failed {
		return 1
	}
	return 0
}

// queryConcurrently resolves window 0 of session from n goroutines at
// once and returns the errors.
func queryConcurrently(session string, n int) []error {
	env := map[string]string{"STY": session, "WINDOW": "0"}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for range n {
		wg.Go(func() {
			w, err := screen.ResolveTarget(context.Background(), screen.ExecRunner{}, "", func(k string) string { return env[k] })
			if err == nil && w.Window != "0" {
				err = fmt.Errorf("resolved %s, want window 0", w.Address())
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errs
}

// queryProcess is a query program started by a test.
type queryProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   strings.Builder // what it printed after "ready"
	done  chan struct{}
}

// startQueryProcess starts a query program of n goroutines on session
// and waits until it is ready.
func startQueryProcess(t *testing.T, session string, n int) *queryProcess {
	t.Helper()
	argv, env := programCommand(t, "query", session, strconv.Itoa(n))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start query program: %v", err)
	}
	p := &queryProcess{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	t.Cleanup(func() {
		stdin.Close()
		<-p.done
	})
	r := bufio.NewReader(stdout)
	if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("query program said %q, %v; want ready", line, err)
	}
	go func() {
		io.Copy(&p.out, r)
		close(p.done)
	}()
	return p
}

// wait waits for the program to finish and returns what it printed and
// its exit error.
func (p *queryProcess) wait() (string, error) {
	<-p.done
	err := p.cmd.Wait()
	return p.out.String(), err
}

// Two -Q queries to one session at once collide on screen's query socket
// (PID.name-queryA): one says "There is already a screen running on", or
// gets an empty reply, or waits for a reply that never comes. Queries from
// several processes and goroutines must all succeed.
func TestIntegration_ConcurrentQueries(t *testing.T) {
	const processes, perProcess, local = 4, 8, 8 // 40 queries in all
	s := startDetached(t, "echo", t.TempDir()+"/echo.log")
	procs := make([]*queryProcess, processes)
	for i := range procs {
		procs[i] = startQueryProcess(t, s.name, perProcess)
	}
	for _, p := range procs {
		if _, err := io.WriteString(p.stdin, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
	failures := 0
	for _, err := range queryConcurrently(s.name, local) {
		t.Errorf("query in the test process: %v", err)
		failures++
	}
	for i, p := range procs {
		out, err := p.wait()
		if err != nil {
			t.Errorf("query process %d: %v:\n%s", i, err, out)
			failures += strings.Count(out, "\n")
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d concurrent queries failed", failures, processes*perProcess+local)
	}
}

// A -X probes the sockets named like its session, the query's reply
// socket among them, and the query's reply comes back empty. The
// hardcopies of a poller must not cost a query its reply: no query here
// is retried. Locks are per open file, so goroutines stand for processes.
func TestIntegration_QueriesAmidCommands(t *testing.T) {
	const snapshotters, queriers, queries = 2, 2, 50
	s := startEcho(t)
	w := s.window("0")
	ctx, stop := context.WithCancel(context.Background())
	// A query waits for a snapshot to end: queries back to back would keep
	// the snapshots from ever getting the session.
	snapped := make(chan struct{}, queriers)
	var wg sync.WaitGroup
	for range snapshotters {
		term := screen.NewWindowTerminal(w, screen.TerminalOptions{TempDir: t.TempDir()})
		wg.Go(func() {
			for ctx.Err() == nil {
				if _, err := term.Snapshot(ctx); err != nil && ctx.Err() == nil {
					t.Errorf("snapshot amid queries: %v", err)
					return
				}
				select {
				case snapped <- struct{}{}:
				default:
				}
			}
		})
	}
	var qwg sync.WaitGroup
	for range queriers {
		qwg.Go(func() {
			for range queries {
				select {
				case <-snapped:
				case <-time.After(waitTimeout):
					t.Error("no snapshot came")
					return
				}
				if out, err := screen.QueryOnce(ctx, w, "number"); err != nil || !strings.HasPrefix(out, "0 ") {
					t.Errorf("query amid snapshots = %q, %v; want window 0", out, err)
				}
			}
		})
	}
	qwg.Wait()
	stop()
	wg.Wait()
}
