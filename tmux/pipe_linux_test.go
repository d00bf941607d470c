package tmux

import (
	"errors"
	"io"
	"testing"
)

// The output pipe's raw calls: how much waits, and a read of it.
func TestOutputPipe_WaitingAndReadNow(t *testing.T) {
	r, w, err := outputPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	waiting, readNow := bytesWaiting(r), readWaiting(r)
	if n, ok := waiting(); !ok || n != 0 {
		t.Fatalf("empty pipe: waiting = %d, %v", n, ok)
	}
	if _, err := w.Write([]byte("%output %1 abc\n")); err != nil {
		t.Fatal(err)
	}
	if n, ok := waiting(); !ok || n != 15 {
		t.Fatalf("waiting = %d, %v; want 15", n, ok)
	}
	b := make([]byte, 64)
	if n, err := readNow(b); err != nil || string(b[:n]) != "%output %1 abc\n" {
		t.Fatalf("readNow = %q, %v", b[:n], err)
	}
	w.Close()
	if _, err := readNow(b); !errors.Is(err, io.EOF) {
		t.Fatalf("readNow after the writer closed: %v, want EOF", err)
	}
}
