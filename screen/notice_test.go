package screen_test

import (
	"context"
	"errors"
	"testing"

	"github.com/codeman-dev/codeman/screen"
)

// recordingRunner keeps the argv of every screen command.
type recordingRunner struct{ calls [][]string }

func (r *recordingRunner) Run(_ context.Context, args ...string) (string, error) {
	r.calls = append(r.calls, args)
	return "", nil
}

// The message reaches screen's echo as written: one line, with screen's
// own escapes escaped.
func TestNotice_EscapesScreenEscapes(t *testing.T) {
	r := &recordingRunner{}
	w := screen.Window{Session: "123.work", Window: "2"}
	if err := screen.Notice(context.Background(), r, w, `rm -rf ^G \n`+"\nnext"); err != nil {
		t.Fatal(err)
	}
	got := r.calls[0]
	want := []string{"-S", "123.work", "-p", "2", "-X", "echo", `rm -rf \^G \\n next`}
	if len(got) != len(want) {
		t.Fatalf("argv %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("argv %q, want %q", got, want)
		}
	}
}

// On a real session the notice is accepted; a session that is gone is
// an error that says so.
func TestNotice_RealSession(t *testing.T) {
	s := startEcho(t)
	ctx := context.Background()
	if err := screen.Notice(ctx, screen.ExecRunner{}, s.window("0"), "codeman: needs you"); err != nil {
		t.Fatal(err)
	}
	gone := screen.Window{Session: "99999.codeman-no-such-session", Window: "0"}
	if err := screen.Notice(ctx, screen.ExecRunner{}, gone, "x"); !errors.Is(err, screen.ErrNoSession) {
		t.Fatalf("Notice to a missing session = %v, want ErrNoSession", err)
	}
}
