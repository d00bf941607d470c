package screen_test

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
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
	if err := screen.Notice(context.Background(), r, w, `rm -rf ^G \n $HOME ${TOKEN}`+"\nnext\x1b]0;t\a\u202e"); err != nil {
		t.Fatal(err)
	}
	got := r.calls[0]
	want := []string{"-S", "123.work", "-p", "2", "-X", "echo", `rm -rf \^G \\n \$HOME \${TOKEN} next\\x1b]0;t\\x07\\u202e`}
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

// queryRunner runs each command with -Q in place of -X, so that what
// screen makes of a message comes back to the test: in a session no
// display shows, -Q returns the message to the client that asked.
type queryRunner struct{ out []string }

func (q *queryRunner) Run(ctx context.Context, args ...string) (string, error) {
	args = slices.Clone(args)
	if i := slices.Index(args, "-X"); i >= 0 {
		args[i] = "-Q"
	}
	out, err := screen.ExecRunner{}.Run(ctx, args...)
	q.out = append(q.out, out)
	return "", err // output of a command is an error to its caller
}

// screen expands $NAME in a command's argument from its own environment:
// a notice quoting a permission prompt's command shows the variable's name,
// never the secret in screen's environment.
func TestNotice_NoVariableExpansion(t *testing.T) {
	requireScreen(t)
	name := uniqueName()
	argv, env := programCommand(t, "echo", t.TempDir()+"/echo.log")
	cmd := exec.Command("screen", append([]string{"-dmS", name, "-c", "/dev/null"}, argv...)...)
	cmd.Env = append(env, "CODEMAN_TEST_SECRET=hunter2")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("start screen session: %v: %s", err, out)
	}
	s := registerSession(t, name)
	text := `curl -H "Authorization: ${CODEMAN_TEST_SECRET}" $CODEMAN_TEST_SECRET $:cl: \n ^G 'quoted'`
	q := &queryRunner{}
	if err := screen.Notice(context.Background(), q, s.window("0"), text); err != nil {
		t.Fatal(err)
	}
	shown := strings.TrimSpace(strings.Join(q.out, ""))
	if strings.Contains(shown, "hunter2") || shown != text {
		t.Fatalf("screen showed %q, want %q", shown, text)
	}
}
