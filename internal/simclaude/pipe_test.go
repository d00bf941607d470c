package simclaude_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"go.uber.org/goleak"

	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// TestRun_PipesAndCancel runs the session in-process on pipes (no tty, so
// no raw mode and the size from Cols/Rows), then cancels it: Run returns
// nil and leaves no goroutine behind.
func TestRun_PipesAndCancel(t *testing.T) {
	defer goleak.VerifyNone(t)
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	defer inW.Close()
	defer outR.Close()

	term := vt.NewEmulator(80, 24)
	var mu sync.Mutex
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		buf := make([]byte, 32*1024)
		for {
			n, err := outR.Read(buf)
			mu.Lock()
			_, _ = term.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	screen := func() string {
		mu.Lock()
		defer mu.Unlock()
		return term.String()
	}
	waitScreen := func(what, want string) {
		t.Helper()
		if err := wait.Until(what, waitTimeout, func() bool { return strings.Contains(screen(), want) }); err != nil {
			t.Fatalf("%v; screen:\n%s", err, screen())
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- simclaude.Run(ctx, simclaude.Options{In: inR, Out: outW, Cols: 80, Rows: 24, Work: 300 * time.Millisecond, Cwd: "/proj"})
	}()
	waitScreen("the idle footer", idleFooter)
	if _, err := inW.WriteString("hello\r"); err != nil {
		t.Fatal(err)
	}
	waitScreen("the reply", "“hello”")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return after cancel")
	}
	outW.Close()
	<-copied
}
