package spool

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestReadInput_Timeout: a writer that never writes nor closes cannot hold
// the handler past its time limit.
func TestReadInput_Timeout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Closing both ends ends the reading goroutine left behind.
	defer r.Close()
	defer w.Close()
	if _, err := readInput(r, MaxInput, 20*time.Millisecond); !errors.Is(err, ErrInputTimeout) {
		t.Fatalf("err = %v, want ErrInputTimeout", err)
	}
}

func TestReadInput(t *testing.T) {
	tests := []struct {
		name    string
		in      io.Reader
		want    string
		wantErr error
	}{
		{"Small", strings.NewReader("{}"), "{}", nil},
		{"AtLimit", strings.NewReader(strings.Repeat("x", 8)), strings.Repeat("x", 8), nil},
		{"OverLimit", strings.NewReader(strings.Repeat("x", 9)), "", ErrInputTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readInput(tt.in, 8, time.Minute)
			if !errors.Is(err, tt.wantErr) || string(got) != tt.want {
				t.Errorf("readInput = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestClip(t *testing.T) {
	ascii := strings.Repeat("a", maxFieldLen+10)
	if got := clip(ascii); len(got) != maxFieldLen {
		t.Errorf("clip(ascii) has %d bytes, want %d", len(got), maxFieldLen)
	}
	// "é" is two bytes: a cut at an odd offset must back off to a rune start.
	accents := "a" + strings.Repeat("é", maxFieldLen)
	got := clip(accents)
	if len(got) > maxFieldLen || !strings.HasPrefix(accents, got) || !utf8.ValidString(got) {
		t.Errorf("clip(accents) = %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if got := clip("short"); got != "short" {
		t.Errorf("clip(short) = %q", got)
	}
}
