package aicheck_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// The test binary doubles as a fake `claude` and a fake `codex`: tests
// put a symlink named claude or codex to it first on the checks' PATH and
// choose its behaviour through these variables in the checks' environment.
// As codex, it prints its answers as the events of codex exec --json.
const (
	fakeModeVar       = "AICHECK_FAKE_MODE"        // what the fake does, see fakeModes
	fakeDirVar        = "AICHECK_FAKE_DIR"         // where it records and finds release files
	fakeIgnoreTermVar = "AICHECK_FAKE_IGNORE_TERM" // "1": ignore SIGTERM in sleep mode
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeModeVar); mode != "" {
		os.Exit(runFake(mode))
	}
	goleak.VerifyTestMain(m)
}

// fakeAnswers are the modes that print a fixed text and exit.
var fakeAnswers = map[string]struct {
	stdout, stderr string
	code           int
}{
	"idle":      {stdout: "IDLE\nThe completion line is shown and the prompt is empty.\n"},
	"working":   {stdout: "WORKING\nThe footer says esc to interrupt.\n"},
	"plan":      {stdout: "PLAN_MODE\nA plan approval menu waits.\n"},
	"notplan":   {stdout: "NOT_PLAN_MODE\nA question picker is open.\n"},
	"markdown":  {stdout: "**idle** — completion line and empty prompt\n"},
	"garbage":   {stdout: "I think the session might be done.\n"},
	"empty":     {},
	"wrongkind": {stdout: "PLAN_MODE\nA plan approval menu waits.\n"},
	"fail":      {stderr: "Error: something broke\n", code: 1},
	"stderr":    {stderr: "warning: config file ignored\n"},
	"limit":     {stdout: "You've hit your 5-hour limit · resets 10:06pm (UTC)\n", code: 1},
	"epoch":     {stdout: "Claude AI usage limit reached|1767225600\n", code: 1},
	"429":       {stdout: "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit\n", code: 1},
	"529":       {stdout: "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.\n", code: 1},
}

// codexAnswers are the modes that print fixed codex exec --json output,
// as codex 0.171.0 printed it, and exit.
var codexAnswers = map[string]struct {
	stdout, stderr string
	code           int
}{
	"codex-limit":    {stdout: codexTurnFailed("You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 10:06 PM."), code: 1},
	"codex-dated":    {stdout: codexTurnFailed("You’ve hit your usage limit. Try again at Dec 4th, 2026 3:45 PM."), code: 1},
	"codex-429":      {stdout: codexTurnFailed("exceeded retry limit, last status: 429 Too Many Requests, request id: req_fake_1"), code: 1},
	"codex-capacity": {stdout: codexTurnFailed("Selected model is at capacity. Please try a different model."), code: 1},
	"codex-500":      {stdout: codexTurnFailed("We’re currently experiencing high demand, which may cause temporary errors."), code: 1},
	"codex-config":   {stderr: "Error loading configuration: approval_policy = \"untrusted\" is no longer supported\n", code: 1},
}

// codexTurnFailed is codex exec --json's output for a turn that failed
// with msg.
func codexTurnFailed(msg string) string {
	m, _ := json.Marshal(msg) // a string always marshals
	return `{"type":"thread.started","thread_id":"fake"}` + "\n" + `{"type":"turn.started"}` + "\n" +
		`{"type":"error","message":` + string(m) + "}\n" + `{"type":"turn.failed","error":{"message":` + string(m) + "}}\n"
}

// runFake is the fake claude's and codex's main.
func runFake(mode string) int {
	dir := os.Getenv(fakeDirVar)
	if a, ok := codexAnswers[mode]; ok {
		fmt.Print(a.stdout)
		fmt.Fprint(os.Stderr, a.stderr)
		return a.code
	}
	if a, ok := fakeAnswers[mode]; ok {
		if a.code == 0 && a.stdout != "" {
			printAnswer(a.stdout)
		} else {
			fmt.Print(a.stdout)
		}
		fmt.Fprint(os.Stderr, a.stderr)
		return a.code
	}
	switch mode {
	case "record":
		return fakeRecord(dir)
	case "sleep":
		return fakeSleep(dir)
	case "grandchild":
		return fakeGrandchild()
	case "block":
		return fakeBlock(dir)
	}
	fmt.Fprintf(os.Stderr, "fake %s: unknown mode %q\n", fakeName(), mode)
	return 2
}

// fakeName is the name the fake runs under: claude or codex.
func fakeName() string { return filepath.Base(os.Args[0]) }

// printAnswer prints a successful answer: as is for claude, as the events
// of a completed turn for codex.
func printAnswer(text string) {
	if fakeName() != "codex" {
		fmt.Print(text)
		return
	}
	item, _ := json.Marshal(map[string]any{"type": "item.completed", "item": map[string]string{"id": "item_0", "type": "agent_message", "text": text}})
	fmt.Printf("%s\n%s\n%s\n%s\n", `{"type":"thread.started","thread_id":"fake"}`, `{"type":"turn.started"}`, item,
		`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`)
}

// invocation is what the record mode saw.
type invocation struct {
	Args       []string
	Env        []string
	Dir        string
	DirEntries []string
	Stdin      string
}

func fakeRecord(dir string) int {
	stdin, err := io.ReadAll(os.Stdin)
	if err != nil {
		return fakeFail(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fakeFail(err)
	}
	entries, err := os.ReadDir(cwd)
	if err != nil {
		return fakeFail(err)
	}
	inv := invocation{Args: os.Args[1:], Env: os.Environ(), Dir: cwd, DirEntries: []string{}, Stdin: string(stdin)}
	for _, e := range entries {
		inv.DirEntries = append(inv.DirEntries, e.Name())
	}
	data, err := json.Marshal(inv)
	if err != nil {
		return fakeFail(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "record.json"), data); err != nil {
		return fakeFail(err)
	}
	printAnswer("IDLE\nrecorded\n")
	return 0
}

// fakeSleep starts a grandchild in the same process group, then sleeps past
// any test timeout; both ignore SIGTERM when asked.
func fakeSleep(dir string) int {
	ignoreTerm()
	exe, err := os.Executable()
	if err != nil {
		return fakeFail(err)
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), fakeModeVar+"=grandchild")
	child.Stdout = os.Stdout // holds claude's stdout pipe open, as a stray child would
	if err := child.Start(); err != nil {
		return fakeFail(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "grandchild.pid"), []byte(strconv.Itoa(child.Process.Pid))); err != nil {
		return fakeFail(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "child.pid"), []byte(strconv.Itoa(os.Getpid()))); err != nil {
		return fakeFail(err)
	}
	time.Sleep(time.Minute)
	return 0
}

func fakeGrandchild() int {
	ignoreTerm()
	time.Sleep(time.Minute)
	return 0
}

func ignoreTerm() {
	if os.Getenv(fakeIgnoreTermVar) == "1" {
		signal.Ignore(syscall.SIGTERM)
	}
}

// fakeBlock records that it started and how many fakes were running
// then, waits for the release file, records that it is done and answers
// the prompt's kind with a negative verdict.
func fakeBlock(dir string) int {
	prompt, err := io.ReadAll(os.Stdin)
	if err != nil {
		return fakeFail(err)
	}
	answer := "IDLE\nreleased"
	if strings.Contains(string(prompt), "NOT_PLAN_MODE") {
		answer = "NOT_PLAN_MODE\nreleased"
	}
	pid := strconv.Itoa(os.Getpid())
	if err := os.WriteFile(filepath.Join(dir, "started-"+pid), nil, 0o644); err != nil {
		return fakeFail(err)
	}
	running := countPrefix(dir, "started-") - countPrefix(dir, "done-")
	if err := writeFileAtomic(filepath.Join(dir, "running-"+pid), []byte(strconv.Itoa(running))); err != nil {
		return fakeFail(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "release")); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := os.WriteFile(filepath.Join(dir, "done-"+pid), nil, 0o644); err != nil {
		return fakeFail(err)
	}
	printAnswer(answer + "\n")
	return 0
}

func countPrefix(dir, prefix string) int {
	entries, _ := os.ReadDir(dir) // a read error counts as none, which the test then sees
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			n++
		}
	}
	return n
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func fakeFail(err error) int {
	fmt.Fprintf(os.Stderr, "fake %s: %v\n", fakeName(), err)
	return 3
}
