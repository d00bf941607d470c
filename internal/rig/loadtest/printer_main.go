//go:build linux

package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"golang.org/x/sys/unix"

	"github.com/codeman-dev/codeman/internal/simclaude"
)

// InputEntry is one line of a printer's input log: bytes that reached the
// pane's program, and when. A working pane must never get any.
type InputEntry struct {
	T    time.Time `json:"t"`
	Data string    `json:"data"`
}

// PrinterMain runs a printer on the terminal in, out until SIGHUP (tmux
// closes the pane), SIGTERM or a failed write, and returns the exit code.
// args: -log FILE (input log, created empty at start), -verb, -redraw,
// -started-ago (how long the turn has already been running).
func PrinterMain(args []string, in, out *os.File) int {
	fs := flag.NewFlagSet("printer", flag.ContinueOnError)
	logPath := fs.String("log", "", "append every input chunk to this file as a JSON line")
	verb := fs.String("verb", DefaultVerb, "spinner verb")
	redraw := fs.Duration("redraw", DefaultRedraw, "status row redraw interval")
	ago := fs.Duration("started-ago", 5*time.Second, "elapsed time shown at start")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := runPrinter(*logPath, Printer{Verb: *verb}, *redraw, *ago, in, out); err != nil {
		fmt.Fprintln(os.Stderr, "printer:", err)
		return 1
	}
	return 0
}

func runPrinter(logPath string, p Printer, redraw, ago time.Duration, in, out *os.File) error {
	inLog, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open input log: %w", err)
	}
	defer inLog.Close()
	restore, err := simclaude.MakeRaw(int(in.Fd()))
	if err != nil {
		return err
	}
	defer restore()
	p.Width, p.Height = 200, 50
	if ws, err := unix.IoctlGetWinsize(int(out.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 && ws.Row > 0 {
		p.Width, p.Height = int(ws.Col), int(ws.Row)
	}
	ctx, stop := signal.NotifyContext(context.Background(), unix.SIGHUP, unix.SIGTERM, unix.SIGINT)
	defer stop()
	go logInput(in, inLog)
	return p.Draw(ctx, out, time.Now().Add(-ago), redraw)
}

// logInput appends each chunk read from in to w until in ends.
func logInput(in io.Reader, w io.Writer) {
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			line, _ := json.Marshal(InputEntry{T: time.Now(), Data: string(buf[:n])})
			if _, werr := w.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// ReadInputLog reads a printer's input log. A line that does not parse is
// an error naming the file and line.
func ReadInputLog(path string) ([]InputEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read input log: %w", err)
	}
	defer f.Close()
	var out []InputEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var e InputEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("read input log %s line %d: %w", path, n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read input log %s: %w", path, err)
	}
	return out, nil
}
