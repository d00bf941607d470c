package screen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/simclaude"
)

// programEnv makes the test binary run a test program instead of the
// tests, so that it can be started inside a screen window.
const programEnv = "CODEMAN_SCREEN_TEST_PROGRAM"

func TestMain(m *testing.M) {
	switch os.Getenv(programEnv) {
	case "":
	case "echo":
		os.Exit(echoMain(os.Args[1:]))
	case "claude":
		os.Exit(simclaude.Main(os.Args[1:], os.Stdin, os.Stdout))
	case "query":
		os.Exit(queryMain(os.Args[1:]))
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", programEnv, os.Getenv(programEnv))
		os.Exit(2)
	}
	os.Exit(runIsolated(m))
}

// runIsolated runs the tests with SCREENDIR set to a private directory,
// so that they never see or touch the sessions of whoever runs them.
func runIsolated(m *testing.M) int {
	dir, err := os.MkdirTemp("", "scr") // short: screen's socket paths are limited
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("SCREENDIR", dir)
	code := m.Run()
	if code != 0 {
		fmt.Fprintln(os.Stderr, "the tests ran on", tmuxtest.Releases())
	}
	return code
}

// echoRead is one read of the echo program, as logged.
type echoRead struct {
	In []byte `json:"in"`
}

// echoMain is a program that shows every read of its terminal input on
// screen as `got "<Go-quoted bytes>"` and appends it to the log file
// args[0] as JSON. It puts the terminal in raw mode (so that a CR stays
// a CR and nothing is echoed) and asks for bracketed paste, as Claude
// Code does.
func echoMain(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: echo LOGFILE")
		return 2
	}
	log, err := os.OpenFile(args[0], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer log.Close()
	if err := makeRaw(0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Stdout.WriteString("\x1b[?2004hready\r\n")
	buf := make([]byte, 64<<10)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			line, _ := json.Marshal(echoRead{In: buf[:n]})
			log.Write(append(line, '\n'))
			os.Stdout.WriteString("got " + strconv.Quote(string(buf[:n])) + "\r\n")
		}
		if err != nil {
			return 0
		}
	}
}
