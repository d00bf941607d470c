package screen

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// fakeScreen is a Runner that plays one screen session the way screen 4.9
// answers: -Q replies and errors on stdout, -X silent, hardcopy written to
// the file at once (as if screen were instant), readbuf turning LF into
// CR. Tests change windows' rows and watch the input each window got.
type fakeScreen struct {
	mu       sync.Mutex
	version  string
	session  string // full name
	ls       string // -ls output; derived from session when empty
	windows  map[string]*fakeWindow
	gone     bool // the session ended
	buffer   []byte
	calls    [][]string
	onInput  func(w *fakeWindow, in string) // called with the lock held
	silentHC bool                           // hardcopy requests are dropped
}

type fakeWindow struct {
	num    string
	title  string
	width  int
	rows   []string // what hardcopy writes, one per row
	inputs []string // what the window got, one entry per -X
}

func newFakeScreen(session string) *fakeScreen {
	return &fakeScreen{
		version: "Screen version 4.09.00 (GNU) 30-Jan-22\n",
		session: session,
		windows: map[string]*fakeWindow{},
	}
}

// addWindow adds a window of width x len(rows).
func (f *fakeScreen) addWindow(num string, width int, rows ...string) *fakeWindow {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := &fakeWindow{num: num, title: "claude", width: width, rows: rows}
	f.windows[num] = w
	return w
}

func (f *fakeScreen) setRows(num string, rows ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.windows[num].rows = rows
}

func (f *fakeScreen) closeWindow(num string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.windows, num)
}

func (f *fakeScreen) end() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone = true
}

func (f *fakeScreen) inputs(num string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.windows[num].inputs...)
}

// commands returns the -X and -Q commands run so far, "X hardcopy" style,
// without file arguments.
func (f *fakeScreen) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		for i, a := range c {
			if (a == "-X" || a == "-Q") && i+1 < len(c) {
				cmd := a[1:] + " " + c[i+1]
				if c[i+1] == "stuff" {
					cmd += " " + c[i+2]
				}
				out = append(out, cmd)
			}
		}
	}
	return out
}

func (f *fakeScreen) Run(ctx context.Context, args ...string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, args)
	switch {
	case len(args) == 1 && args[0] == "-v":
		return f.version, nil
	case len(args) == 1 && args[0] == "-ls":
		return f.lsOutput(), nil
	}
	session, win, verb, cmd := parseFakeArgs(args)
	if f.gone || session != f.session {
		return msgNoSession + "\n", nil
	}
	if win == "" {
		win = f.current()
	}
	w, ok := f.windows[win]
	if !ok {
		if verb == "-Q" {
			return msgNoWindow, nil
		}
		return "", nil // -X to a missing window: dropped without a word
	}
	if verb == "-Q" {
		return f.query(w, cmd), nil
	}
	return f.command(w, cmd)
}

func parseFakeArgs(args []string) (session, win, verb string, cmd []string) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-S":
			session = args[i+1]
			i++
		case "-p":
			win = args[i+1]
			i++
		case "-X", "-Q":
			return session, win, args[i], args[i+1:]
		}
	}
	return session, win, "", nil
}

func (f *fakeScreen) lsOutput() string {
	if f.ls != "" {
		return f.ls
	}
	if f.gone {
		return "No Sockets found in /run/screen/S-test.\n\n"
	}
	return "There is a screen on:\n\t" + f.session + "\t(11/29/26 20:40:18)\t(Detached)\n1 Socket in /run/screen/S-test.\n"
}

func (f *fakeScreen) current() string {
	best := ""
	for n := range f.windows {
		if best == "" || n > best {
			best = n
		}
	}
	return best
}

func (f *fakeScreen) query(w *fakeWindow, cmd []string) string {
	switch cmd[0] {
	case "number":
		return w.num + " (" + w.title + ")"
	case "info":
		return fmt.Sprintf("(1,1)/(%d,%d)+1024 +(+)flow UTF-8 %s(%s)", w.width, len(w.rows), w.num, w.title)
	}
	return cmd[0] + " command cannot be queried."
}

func (f *fakeScreen) command(w *fakeWindow, cmd []string) (string, error) {
	switch cmd[0] {
	case "hardcopy":
		if f.silentHC {
			return "", nil
		}
		var b strings.Builder
		for _, r := range w.rows {
			b.WriteString(strings.TrimRight(r, " ") + "\n")
		}
		return "", os.WriteFile(cmd[1], []byte(b.String()), 0o600)
	case "readbuf":
		data, err := os.ReadFile(cmd[1])
		if err != nil {
			return "", err
		}
		f.buffer = []byte(strings.ReplaceAll(string(data), "\n", "\r"))
	case "paste":
		f.input(w, string(f.buffer))
	case "stuff":
		f.input(w, unoctal(cmd[1]))
	default:
		return "-X: unknown command '" + cmd[0] + "'", nil
	}
	return "", nil
}

func (f *fakeScreen) input(w *fakeWindow, in string) {
	w.inputs = append(w.inputs, in)
	if f.onInput != nil {
		f.onInput(w, in)
	}
}

// unoctal turns screen's \ooo escapes into bytes.
func unoctal(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
