//go:build unix

package screen

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// lockDirIn is where lockSessionIn keeps its locks under root.
func lockDirIn(root string) string {
	return filepath.Join(root, "codeman-"+strconv.Itoa(os.Geteuid()), lockSubdir)
}

func mustLock(t *testing.T, root, session string, exclusive bool) func() {
	t.Helper()
	release, err := lockSessionIn(context.Background(), clockwork.NewFakeClock(), root, session, exclusive)
	if err != nil {
		t.Fatal(err)
	}
	return release
}

// lockFree reports whether session's lock is free, as one try of another
// process would find it.
func lockFree(t *testing.T, root, session string, exclusive bool) bool {
	t.Helper()
	f, err := openLockFile(root, session)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ok, err := tryFlock(f, exclusive)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestLockSessionExcludes(t *testing.T) {
	root := t.TempDir()
	release := mustLock(t, root, "12345", true)
	if lockFree(t, root, "12345", true) || lockFree(t, root, "12345", false) {
		t.Error("an exclusive lock let another holder in")
	}
	if !lockFree(t, root, "12346", true) {
		t.Error("the lock of one session kept another's out")
	}
	release()
	if !lockFree(t, root, "12345", true) {
		t.Error("the lock stayed taken after release")
	}

	shared := mustLock(t, root, "12345", false)
	if !lockFree(t, root, "12345", false) {
		t.Error("a shared lock kept another shared holder out")
	}
	if lockFree(t, root, "12345", true) {
		t.Error("a shared lock let an exclusive holder in")
	}
	shared()
}

type lockResult struct {
	release func()
	err     error
}

// waitForLock starts taking a held lock and returns once it waits.
func waitForLock(t *testing.T, ctx context.Context, clock *clockwork.FakeClock, root, session string) <-chan lockResult {
	t.Helper()
	done := make(chan lockResult, 1)
	go func() {
		release, err := lockSessionIn(ctx, clock, root, session, true)
		done <- lockResult{release, err}
	}()
	bctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(bctx, 1); err != nil {
		t.Fatal("lock never waited for a held lock")
	}
	return done
}

func lockResultOf(t *testing.T, done <-chan lockResult) lockResult {
	t.Helper()
	select {
	case res := <-done:
		if res.err == nil {
			res.release()
		}
		return res
	case <-time.After(5 * time.Second):
		t.Fatal("lock did not return")
		return lockResult{}
	}
}

func TestLockSessionWaitsForRelease(t *testing.T) {
	root := t.TempDir()
	release := mustLock(t, root, "12345", true)
	clock := clockwork.NewFakeClock()
	done := waitForLock(t, context.Background(), clock, root, "12345")
	release()
	clock.Advance(lockFirstWait)
	if res := lockResultOf(t, done); res.err != nil {
		t.Errorf("lock after release: %v", res.err)
	}
}

func TestLockSessionHonoursContext(t *testing.T) {
	root := t.TempDir()
	defer mustLock(t, root, "12345", true)()
	ctx, cancel := context.WithCancel(context.Background())
	done := waitForLock(t, ctx, clockwork.NewFakeClock(), root, "12345")
	cancel()
	res := lockResultOf(t, done)
	if !errors.Is(res.err, context.Canceled) || !strings.Contains(res.err.Error(), lockFileName("12345")) {
		t.Errorf("lock of a held session after cancel: %v; want context.Canceled naming the lock file", res.err)
	}

	// A context that ended before the call takes no lock, even a free one.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := lockSessionIn(ctx, clockwork.NewFakeClock(), root, "free", true); !errors.Is(err, context.Canceled) {
		t.Errorf("lock with a cancelled context: %v; want context.Canceled", err)
	}
}

func TestLockSessionGivesUpAfterMaxLockWait(t *testing.T) {
	root := t.TempDir()
	defer mustLock(t, root, "12345", true)()
	clock := clockwork.NewFakeClock()
	start := clock.Now()
	done := waitForLock(t, context.Background(), clock, root, "12345")
	bctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for clock.Since(start) < maxLockWait {
		if err := clock.BlockUntilContext(bctx, 1); err != nil {
			t.Fatalf("lock stopped waiting after %s, before maxLockWait", clock.Since(start))
		}
		clock.Advance(lockMaxWait)
	}
	res := lockResultOf(t, done)
	if !errors.Is(res.err, context.DeadlineExceeded) || !strings.Contains(res.err.Error(), "still taken") {
		t.Errorf("lock held past maxLockWait: %v; want DeadlineExceeded", res.err)
	}
}

func TestLockFileNamesAreSafe(t *testing.T) {
	root := t.TempDir()
	for _, session := range []string{"../../escape", "a/b", "", ".", strings.Repeat("x", 4000), "name with spaces\n"} {
		mustLock(t, root, session, true)()
	}
	entries, err := os.ReadDir(lockDirIn(root))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 12 {
		t.Errorf("lock dir holds %d files, want a lock and a turnstile per session (12)", len(entries))
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".lock") || len(e.Name()) != 37 {
			t.Errorf("lock file %q: want a regular file named HASH.lock", e.Name())
		}
		info, _ := e.Info()
		if perm := info.Mode().Perm(); perm != 0o600 {
			t.Errorf("lock file %s has mode %04o, want 0600", e.Name(), perm)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(root, "*")); len(left) != 1 {
		t.Errorf("files outside the lock dir: %v", left)
	}
	for _, dir := range []string{filepath.Dir(lockDirIn(root)), lockDirIn(root)} {
		info, err := os.Lstat(dir)
		if err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, %v; want a directory with mode 0700", dir, info.Mode(), err)
		}
	}
}

func TestLockRefusesUnsafeDirs(t *testing.T) {
	userDir := "codeman-" + strconv.Itoa(os.Geteuid())
	for name, plant := range map[string]func(root string) error{
		"symlink": func(root string) error {
			if err := os.Mkdir(filepath.Join(root, "elsewhere"), 0o700); err != nil {
				return err
			}
			return os.Symlink("elsewhere", filepath.Join(root, userDir))
		},
		"open to others": func(root string) error {
			if err := os.Mkdir(filepath.Join(root, userDir), 0o700); err != nil {
				return err
			}
			return os.Chmod(filepath.Join(root, userDir), 0o777)
		},
		"a file": func(root string) error {
			return os.WriteFile(filepath.Join(root, userDir), nil, 0o600)
		},
		"lock dir a symlink": func(root string) error {
			if err := os.Mkdir(filepath.Join(root, userDir), 0o700); err != nil {
				return err
			}
			return os.Symlink(root, filepath.Join(root, userDir, lockSubdir))
		},
	} {
		root := t.TempDir()
		if err := plant(root); err != nil {
			t.Fatal(err)
		}
		_, err := lockSessionIn(context.Background(), clockwork.NewFakeClock(), root, "12345", true)
		if err == nil || !strings.Contains(err.Error(), root) {
			t.Errorf("%s: lock = %v; want an error naming the dir", name, err)
		}
		if left, _ := filepath.Glob(filepath.Join(root, "*", "*.lock")); len(left) > 0 {
			t.Errorf("%s: lock files made: %v", name, left)
		}
	}
}

// Shared holders that follow each other without a gap do not keep an
// exclusive taker out: it waits at the turnstile, and the next shared
// taker waits behind it.
func TestLock_ExclusiveIsNotStarved(t *testing.T) {
	root := t.TempDir()
	first := mustLock(t, root, "12345", false)
	clock := clockwork.NewFakeClock()
	done := waitForLock(t, context.Background(), clock, root, "12345") // exclusive, waits
	bctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(bctx, 1); err != nil {
		t.Fatal("the exclusive taker does not wait")
	}
	// A new shared taker cannot pass the exclusive one now.
	sctx, scancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer scancel()
	if release, err := lockSessionIn(sctx, clockwork.NewFakeClock(), root, "12345", false); err == nil {
		release()
		t.Fatal("a shared taker passed a waiting exclusive one")
	}
	first()
	clock.Advance(lockMaxWait)
	if res := lockResultOf(t, done); res.err != nil {
		t.Fatalf("exclusive taker after the shared one left: %v", res.err)
	}
}
