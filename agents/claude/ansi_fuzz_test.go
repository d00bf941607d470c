package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzStripANSI strips arbitrary streams, whole, cut in two and byte by
// byte, and checks what the stream detector relies on: the same text
// however the stream is cut, no escape or control left but '\n', no
// separator run, nothing grown, plain text untouched, and visibleRunes
// agreeing with decoding. The seeds are the real screen captures and the
// unit cases.
func FuzzStripANSI(f *testing.F) {
	for _, name := range screenFixtureNames(f, ".ansi") {
		raw, err := os.ReadFile(filepath.Join(screenDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, uint16(len(raw)/3))
	}
	for _, tt := range stripTests {
		f.Add([]byte(tt.in), uint16(len(tt.in)/2))
	}
	f.Add([]byte("\x1b]0;\x1b\x1b[\x1b[?\x9b\xc2"), uint16(3))
	f.Add([]byte("a\xe2\x80\x80b\xc2\xa0c\xe3\x80\x80\xe2\x81\x9f\xe2\x80"), uint16(5))
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		whole := stripInPieces(in)
		if s := StripANSI(string(in)); s != string(whole) {
			t.Fatalf("StripANSI(%q) = %q, the stripper %q", in, s, whole)
		}
		if len(whole) > len(in) {
			t.Fatalf("output %q of %q is longer", whole, in)
		}
		for i, c := range whole {
			if c < 0x20 && c != '\n' || c == 0x7f {
				t.Fatalf("output %q of %q holds %#x at %d", whole, in, c, i)
			}
		}
		if len(whole) > 0 && whole[0] == '\n' || bytes.Contains(whole, []byte("\n\n")) {
			t.Fatalf("output %q of %q has a separator run", whole, in)
		}
		if textRun(in) == len(in) && !bytes.Equal(whole, in) {
			t.Fatalf("plain text %q came out as %q", in, whole)
		}
		at := int(cut) % (len(in) + 1)
		if split := stripInPieces(in, at); !bytes.Equal(split, whole) {
			t.Fatalf("cut at %d: %q, whole: %q (input %q)", at, split, whole, in)
		}
		if bytewise := stripInPieces(in, everyByte(len(in))...); !bytes.Equal(bytewise, whole) {
			t.Fatalf("byte by byte: %q, whole: %q (input %q)", bytewise, whole, in)
		}
		got, rest := visibleRunes(whole)
		if want := decodedVisibleRunes(whole[:len(whole)-rest]); got != want {
			t.Fatalf("visibleRunes(%q) = %d, decoding counts %d", whole, got, want)
		}
	})
}

func everyByte(n int) []int {
	cuts := make([]int, 0, n)
	for i := 1; i < n; i++ {
		cuts = append(cuts, i)
	}
	return cuts
}
