package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// roleVar makes the test binary run main, as Claude Code runs codeman-hook.
const roleVar = "CODEMAN_HOOK_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(roleVar) == "1" {
		// main sees the arguments after "--" as its own.
		args := []string{os.Args[0]}
		if i := slices.Index(os.Args, "--"); i >= 0 {
			args = append(args, os.Args[i+1:]...)
		}
		os.Args = args
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runHook runs main in a child process with stdin and the environment of a
// hook in tmux pane %3, and returns what it printed and the spool dir.
func runHook(t *testing.T, stdin string, extraEnv ...string) (string, string) {
	t.Helper()
	return runHookArgs(t, stdin, nil, extraEnv...)
}

// runHookArgs is runHook with command-line arguments, as a hook entry
// gives them.
func runHookArgs(t *testing.T, stdin string, args []string, extraEnv ...string) (string, string) {
	t.Helper()
	runtime := t.TempDir()
	// The test binary takes its own flags before "--" and leaves main
	// the rest, as the hook entry's command line gives them.
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append([]string{
		roleVar + "=1",
		"XDG_RUNTIME_DIR=" + runtime,
		"TMUX=/tmp/tmux-1000/default,4242,0",
		"TMUX_PANE=%3",
	}, extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("codeman-hook exited with %v; output %q", err, out)
	}
	return string(out), filepath.Join(runtime, "codeman", "spool")
}

func spoolNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestMain_WritesMarker: a Stop event becomes the pane's stop marker, and
// nothing is printed (Claude Code shows a hook's output).
func TestMain_WritesMarker(t *testing.T) {
	out, spool := runHook(t, `{"hook_event_name":"Stop","session_id":"s1"}`)
	if out != "" {
		t.Errorf("printed %q, want nothing", out)
	}
	names := spoolNames(t, spool)
	if len(names) != 1 || !strings.HasSuffix(names[0], "-stop.json") {
		t.Fatalf("spool holds %v, want one stop marker", names)
	}
	data, err := os.ReadFile(filepath.Join(spool, names[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"pane":"tmux:/tmp/tmux-1000/default:%3"`, `"event":"Stop"`, `"session_id":"s1"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("marker %s lacks %s", data, want)
		}
	}
}

// TestMain_EventArgument: a GitHub Copilot CLI payload names no event;
// the hook entry's argument does, and the marker takes it. A payload's own
// name wins over the argument.
func TestMain_EventArgument(t *testing.T) {
	out, spool := runHookArgs(t, `{"sessionId":"s2","stopReason":"end_turn"}`, []string{"agentStop"})
	if out != "" {
		t.Errorf("printed %q, want nothing", out)
	}
	names := spoolNames(t, spool)
	if len(names) != 1 || !strings.HasSuffix(names[0], "-stop.json") {
		t.Fatalf("spool holds %v, want one stop marker", names)
	}
	data, err := os.ReadFile(filepath.Join(spool, names[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"event":"agentStop"`, `"session_id":"s2"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("marker %s lacks %s", data, want)
		}
	}
	_, spool = runHookArgs(t, `{"hook_event_name":"UserPromptSubmit"}`, []string{"agentStop"})
	if names := spoolNames(t, spool); len(names) != 1 || !strings.HasSuffix(names[0], "-prompt_submitted.json") {
		t.Errorf("spool holds %v, want one prompt_submitted marker", names)
	}
}

// TestMain_Silent: whatever goes wrong, the handler prints nothing, exits
// 0 and writes no marker.
func TestMain_Silent(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		env         []string
	}{
		{"NotJSON", "not json", nil},
		{"NoEvent", `{"session_id":"s1"}`, nil},
		{"NoEventCamel", `{"sessionId":"s1","stopReason":"end_turn"}`, nil},
		{"InsideCheck", `{"hook_event_name":"Stop"}`, []string{"CODEMAN_CHECK=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, spool := runHook(t, tc.stdin, tc.env...)
			if out != "" {
				t.Errorf("printed %q, want nothing", out)
			}
			if names := spoolNames(t, spool); len(names) > 0 {
				t.Errorf("spool holds %v, want nothing", names)
			}
		})
	}
}

// TestImports: the program links the marker protocol and the standard
// library, nothing else, so that it starts about as fast as a process can
// (BENCHMARKS.md). Packages with a costly init or much code are out too.
func TestImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not found in PATH: cannot list the imports")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	got := strings.Fields(string(out))
	want := []string{"github.com/codeman-dev/codeman/hooks/spool", "github.com/codeman-dev/codeman/cmd/codeman-hook"}
	if !slices.Equal(got, want) {
		t.Errorf("codeman-hook links %v, want only %v", got, want)
	}
	std, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, heavy := range []string{"net", "net/http", "os/exec", "regexp", "log/slog", "text/template", "flag"} {
		if slices.Contains(strings.Fields(string(std)), heavy) {
			t.Errorf("codeman-hook links %s", heavy)
		}
	}
}
