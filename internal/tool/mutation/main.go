// Command mutation checks that every send guard of package respawn has a
// test of its own. It runs the guard and core tests once on a temporary
// copy of the module (they must pass, and every test the table names must
// run); then, for each row of the guard table (respawn's
// sendguards_test.go), it removes that one guard in the copy and expects
// the row's test to fail. A row whose code snippet is not found exactly
// once fails the run, so a refactor must update the table; so does a
// mutant its test does not catch. The working tree is never modified.
//
//	go run ./internal/tool/mutation                 # every row
//	go run ./internal/tool/mutation -only resume    # rows whose guard mentions "resume"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
)

func main() {
	table := flag.String("table", "respawn/sendguards_test.go", "Go file holding the guard table, relative to the module root")
	name := flag.String("var", "sendGuards", "variable holding the guard table")
	pkg := flag.String("pkg", "./respawn/", "package whose tests are run")
	run := flag.String("run", "^(TestGuard|TestCore)", "go test -run pattern: the guard and core tests")
	only := flag.String("only", "", "check only rows whose guard contains this text")
	timeout := flag.Duration("timeout", 2*time.Minute, "go test -timeout for each run")
	jobs := flag.Int("j", min(runtime.NumCPU(), 4), "mutants tested at once, each in its own copy of the module")
	flag.Parse()
	if err := check(*table, *name, *pkg, *run, *only, *timeout, max(*jobs, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(1)
	}
}

func check(table, name, pkg, run, only string, timeout time.Duration, jobs int) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return err
	}
	rows, err := readTable(filepath.Join(root, filepath.FromSlash(table)), name)
	if err != nil {
		return err
	}
	var problems []string
	var picked []guard
	for _, g := range rows {
		if _, _, err := g.check(root); err != nil {
			problems = append(problems, err.Error())
		}
		if strings.Contains(g.Guard, only) {
			picked = append(picked, g)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the guard table does not match the code:\n  %s", strings.Join(problems, "\n  "))
	}
	jobs = min(jobs, max(len(picked), 1))

	tmp, err := os.MkdirTemp("", "codeman-mutation-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	copies := make([]string, jobs)
	for i := range copies {
		copies[i] = filepath.Join(tmp, fmt.Sprint(i))
		if err := copyModule(root, copies[i]); err != nil {
			return fmt.Errorf("copy module: %w", err)
		}
	}
	ctx := context.Background()
	// Stripped, unoptimised test binaries build faster; the tests' outcome
	// does not depend on either.
	args := []string{"-vet=off", "-short", "-count=1", "-gcflags=-N -l", "-ldflags=-s -w", "-timeout", timeout.String(), "-run", run, pkg}

	start := time.Now()
	base, err := goTest(ctx, copies[0], args...)
	if err != nil {
		return fmt.Errorf("run go test: %w", err)
	}
	if !base.ok {
		return fmt.Errorf("the tests fail without any mutation:\n%s", base.output)
	}
	for _, g := range picked {
		if !base.passed[g.Test] {
			problems = append(problems, fmt.Sprintf("%s: test %s did not run (go test -run %q %s)", g.pos, g.Test, run, pkg))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the guard table names tests that do not run:\n  %s", strings.Join(problems, "\n  "))
	}
	fmt.Printf("baseline: %d tests pass (%s); %d mutants, %d at a time\n", len(base.passed), time.Since(start).Round(time.Millisecond), len(picked), jobs)

	type outcome struct {
		caught bool
		detail string
		err    error
	}
	results := make([]outcome, len(picked))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := 0
	for _, dir := range copies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				g := picked[i]
				caught, detail, err := mutate(ctx, dir, g, args)
				results[i] = outcome{caught, detail, err}
				verdict := "caught"
				if !caught {
					verdict = "MISSED"
				}
				mu.Lock()
				done++
				if err == nil {
					fmt.Printf("%2d/%d %s  %s  [%s]\n", done, len(picked), verdict, g.Guard, firstLine(detail))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range picked {
		next <- i
	}
	close(next)
	wg.Wait()

	var missed []string
	for i, r := range results {
		g := picked[i]
		if r.err != nil {
			return r.err
		}
		if !r.caught {
			missed = append(missed, fmt.Sprintf("%s: %s (%s should fail)\n%s", g.pos, g.Guard, g.Test, indent(r.detail)))
		}
	}
	if len(missed) > 0 {
		return fmt.Errorf("%d of %d guards can be removed without their test failing:\n%s", len(missed), len(picked), strings.Join(missed, "\n"))
	}
	fmt.Printf("all %d mutants caught (%s)\n", len(picked), time.Since(start).Round(time.Second))
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// mutate applies one row's mutation in the copy at dir, runs the row's
// test (the baseline ran it with the others) and restores the file. It reports whether the row's test failed, and a
// summary: how many tests failed or, when the row's did not, the output.
func mutate(ctx context.Context, dir string, g guard, args []string) (bool, string, error) {
	original, mutant, err := g.check(dir)
	if err != nil {
		return false, "", err
	}
	path := filepath.Join(dir, filepath.FromSlash(g.File))
	if err := os.WriteFile(path, mutant, 0o644); err != nil {
		return false, "", fmt.Errorf("write mutant: %w", err)
	}
	r, runErr := goTest(ctx, dir, withRun(args, exactly(g.Test))...)
	if err := os.WriteFile(path, original, 0o644); err != nil {
		return false, "", fmt.Errorf("restore %s: %w", g.File, err)
	}
	if runErr != nil {
		return false, "", fmt.Errorf("run go test: %w", runErr)
	}
	if !r.failed[g.Test] {
		if r.ok {
			return false, g.Test + " passes", nil
		}
		return false, g.Test + " did not fail (the build or run did):\n" + r.output, nil
	}
	return true, g.Test + " fails", nil
}

// exactly returns a go test -run pattern that selects test (a test or a
// test/subtest path) and nothing else.
func exactly(test string) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// withRun returns args with the value of -run replaced.
func withRun(args []string, run string) []string {
	out := append([]string(nil), args...)
	for i := range out[:len(out)-1] {
		if out[i] == "-run" {
			out[i+1] = run
		}
	}
	return out
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > 4000 {
		s = s[:4000] + "\n…"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
