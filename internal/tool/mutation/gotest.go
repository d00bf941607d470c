package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
)

// testRun is the outcome of one go test run.
type testRun struct {
	ok     bool            // go test exited 0
	passed map[string]bool // tests (and subtests) that passed
	failed map[string]bool // tests (and subtests) that failed
	output string          // the output of failed tests and of the build
}

// goTest runs go test with -json in dir and collects which tests passed and
// failed.
func goTest(ctx context.Context, dir string, args ...string) (testRun, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := testRun{ok: err == nil, passed: map[string]bool{}, failed: map[string]bool{}}
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		return r, err
	}
	outputs := map[string]*strings.Builder{}
	var out strings.Builder
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			out.WriteString(sc.Text() + "\n")
			continue
		}
		switch ev.Action {
		case "output", "build-output":
			b := outputs[ev.Test]
			if b == nil {
				b = &strings.Builder{}
				outputs[ev.Test] = b
			}
			b.WriteString(ev.Output)
		case "pass":
			r.passed[ev.Test] = true
		case "fail":
			r.failed[ev.Test] = true
			if b := outputs[ev.Test]; b != nil && ev.Test != "" {
				out.WriteString(b.String())
			}
		}
	}
	if b := outputs[""]; b != nil && !r.ok {
		out.WriteString(b.String())
	}
	out.Write(stderr.Bytes())
	r.output = out.String()
	return r, nil
}
