package tmux

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// The test binary doubles as the program running in test panes (stdlib
// os/exec test style): with programEnv set it runs that program instead
// of the tests.
const programEnv = "CODEMAN_TMUX_TEST_PROGRAM"

var programs = map[string]func(){
	"keys":    keysProgram,
	"print":   printProgram,
	"flood":   floodProgram,
	"linelen": lineLenProgram,
	"stall":   stallingControlClient,
}

func TestMain(m *testing.M) {
	if name := os.Getenv(programEnv); name != "" {
		run, ok := programs[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown test program %q\n", name)
			os.Exit(2)
		}
		run()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// programArgv returns the argv that runs the named test program in a pane.
func programArgv(t *testing.T, name string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"env", programEnv + "=" + name, exe}
}

// keysProgram shows every read from its terminal in Go syntax, one line
// per read, so a test can see exactly which bytes arrived and how they
// were grouped: the text, a bracketed paste, a separate Enter.
func keysProgram() {
	fd := int(os.Stdin.Fd())
	if err := makeRaw(fd); err != nil {
		fmt.Println("raw mode:", err)
		waitForever()
	}
	// Ask for bracketed paste, as Claude Code does.
	fmt.Print("\x1b[?2004hready\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return
		}
		fmt.Printf("read %q\r\n", buf[:n])
	}
}

// lineLenProgram reads its terminal raw and, at each Enter, prints how
// many bytes came before it, bracketed-paste markers not counted. A
// terminal in canonical mode would cut lines at 4095 bytes.
func lineLenProgram() {
	fd := int(os.Stdin.Fd())
	if err := makeRaw(fd); err != nil {
		fmt.Println("raw mode:", err)
		waitForever()
	}
	fmt.Print("\x1b[?2004hready\r\n")
	var line []byte
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return
		}
		for _, c := range buf[:n] {
			if c != '\r' {
				line = append(line, c)
				continue
			}
			text := strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "").Replace(string(line))
			fmt.Printf("line of %d bytes\r\n", len(text))
			line = line[:0]
		}
	}
}

// printPayload is what printProgram writes: numbered lines with a
// backslash, UTF-8, an escape sequence and a character that tmux splits
// when it falls on a read boundary.
func printPayload() string {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "seq-%04d back\\slash café \x1b[1m✻ bold\x1b[0m end\n", i)
	}
	b.WriteString("PAYLOAD-DONE\n")
	return b.String()
}

// printProgram waits for a line on stdin, then prints printPayload, then
// waits for input forever.
func printProgram() {
	fmt.Println("waiting")
	in := bufio.NewReader(os.Stdin)
	_, _ = in.ReadString('\n') // any line, or EOF, starts it
	fmt.Print(printPayload())
	waitForever()
}

// floodProgram waits for a line, writes as fast as it can for floodFor,
// then waits for another line and prints a marker.
func floodProgram() {
	in := bufio.NewReader(os.Stdin)
	_, _ = in.ReadString('\n')
	line := strings.Repeat("flood-", 16) + "\n"
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for start := time.Now(); time.Since(start) < floodFor; {
		_, _ = w.WriteString(line)
	}
	_ = w.Flush()
	_, _ = in.ReadString('\n')
	fmt.Println("FLOOD-DONE")
	waitForever()
}

// floodFor outlasts the client's pause-after of 1s in the flow-control
// test, so tmux is still queueing output when it checks the age.
const floodFor = 2 * time.Second

// waitForever blocks on stdin until the pane goes away.
func waitForever() { _, _ = io.Copy(io.Discard, os.Stdin) }

// stallingControlClient plays `tmux -C attach-session` the way tmux 3.3
// was seen to behave while a flood was queued: it accepts the attach, then
// holds each command's reply until the next command line comes. A reply is
// the command's last word.
func stallingControlClient() {
	os.Stdout.WriteString("%begin 1 1 0\n%end 1 1 0\n")
	in := bufio.NewScanner(os.Stdin)
	var held string
	for n := 2; in.Scan(); n++ {
		fmt.Print(held)
		words := strings.Fields(in.Text())
		held = fmt.Sprintf("%%begin 2 %d 1\n%s\n%%end 2 %d 1\n", n, words[len(words)-1], n)
	}
}
