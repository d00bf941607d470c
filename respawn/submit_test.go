package respawn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// fakeKeys records what Submit does; the screen changes after the
// changeAfter'th Enter (0: never).
type fakeKeys struct {
	clock       *clockwork.FakeClock
	start       time.Time
	changeAfter int
	enters      int
	calls       []string
}

func (k *fakeKeys) note(s string) {
	k.calls = append(k.calls, fmt.Sprintf("%4dms %s", k.clock.Since(k.start).Milliseconds(), s))
}

func (k *fakeKeys) Type(_ context.Context, text string) error { k.note("type " + text); return nil }

func (k *fakeKeys) Press(_ context.Context, key Key) error {
	k.enters++
	k.note("press " + string(key))
	return nil
}

func (k *fakeKeys) Look(context.Context) ([]byte, error) {
	if k.changeAfter > 0 && k.enters >= k.changeAfter {
		return []byte("changed"), nil
	}
	return []byte("same"), nil
}

// submitOnFakeClock runs Submit while advancing the clock each time it
// waits.
func submitOnFakeClock(t *testing.T, k *fakeKeys, timing SendTiming) error {
	t.Helper()
	done := make(chan error, 1)
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	go func() { done <- Submit(ctx, k, "hi", timing, k.clock); stop() }()
	for {
		if err := k.clock.BlockUntilContext(ctx, 1); err != nil {
			return <-done
		}
		k.clock.Advance(50 * time.Millisecond)
	}
}

func TestSubmit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		changeAfter int
		retries     int
		wantErr     string
		wantEnters  int
	}{
		{"first Enter lands", 1, 3, "", 1},
		{"second Enter lands", 2, 3, "", 2},
		{"never changes", 0, 2, "after 3 Enter presses", 3},
		{"no retries", 0, 0, "after 1 Enter presses", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := clockwork.NewFakeClock()
			k := &fakeKeys{clock: clock, start: clock.Now(), changeAfter: tc.changeAfter}
			timing := DefaultSendTiming()
			timing.EnterRetries = tc.retries
			err := submitOnFakeClock(t, k, timing)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Submit = %v, want %q", err, tc.wantErr)
			}
			if k.enters != tc.wantEnters {
				t.Fatalf("%d Enter presses, want %d: %q", k.enters, tc.wantEnters, k.calls)
			}
			// The text first, then Enter on its own after the pause.
			if want := []string{"   0ms type hi", " 100ms press Enter"}; !slices.Equal(k.calls[:2], want) {
				t.Fatalf("calls %q, want them to start %q", k.calls, want)
			}
		})
	}
}

// boxKeys is a Claude Code prompt box for Submit: its input, vim's mode
// when vim is on, and a screen drawn from them. Typing in NORMAL mode does
// what vim makes of "write a ...": the first word and a half go, the rest
// is appended in INSERT mode.
type boxKeys struct {
	fakeKeys
	input     string
	vim       bool       // vim key bindings on
	mode      EditorMode // with vim: EditorInsert, EditorNormal or EditorVisual
	noBox     bool
	submitted []string
	// onType, when set, runs after the text arrived (a cancel, a person).
	onType func(b *boxKeys)
	// afterEnter, when set, runs after each Enter.
	afterEnter func(b *boxKeys)
	// onLook, when set, runs before each look at the screen.
	onLook func(b *boxKeys)
}

func (b *boxKeys) Type(ctx context.Context, text string) error {
	b.note("type " + text)
	switch {
	case b.vim && b.mode == EditorNormal:
		if _, rest, ok := strings.Cut(text, " a"); ok {
			b.input, b.mode = b.input+rest, EditorInsert
		}
	case b.vim && b.mode == EditorVisual:
	default:
		b.input += text
	}
	if b.onType != nil {
		b.onType(b)
	}
	return nil
}

func (b *boxKeys) Press(ctx context.Context, key Key) error {
	b.note("press " + string(key))
	letters := !b.vim || b.mode == EditorInsert
	switch key {
	case KeyEnter:
		b.enters++
		b.submitted = append(b.submitted, b.input)
		b.input = ""
		if b.afterEnter != nil {
			b.afterEnter(b)
		}
	case KeyBackspace:
		if r := []rune(b.input); letters && len(r) > 0 {
			b.input = string(r[:len(r)-1])
		}
		if isPlaceholder(b.input + "]") {
			b.input = ""
		}
	case KeyVimInsert:
		if letters {
			b.input += "i"
		} else {
			b.mode = EditorInsert
		}
	}
	return nil
}

func (b *boxKeys) Look(ctx context.Context) ([]byte, error) {
	s, err := b.Screen(ctx)
	return []byte(fmt.Sprint(s.Lines, len(b.submitted))), err
}

func (b *boxKeys) Screen(context.Context) (Screen, error) {
	if b.onLook != nil {
		b.onLook(b)
	}
	if b.noBox {
		return Screen{Lines: []string{"  Search prompts · everywhere"}}, nil
	}
	footer := "  ⏸ manual mode on · ? for shortcuts"
	switch {
	case b.vim && b.mode == EditorInsert:
		footer = "  -- INSERT -- ⏸ manual mode on"
	case b.vim && b.mode == EditorVisual:
		footer = "  -- VISUAL -- ⏸ manual mode on"
	}
	return Screen{Lines: claudescreen.Of("✻ Baked for 6s · done 6:20 PM", "", claudescreen.Rule, "❯\u00a0"+b.input, claudescreen.Rule, footer)}, nil
}

// newBox returns a box with vim on in mode, its reader having seen vim's
// INSERT indicator, or with vim off for EditorPlain.
func newBox(mode EditorMode) (*boxKeys, SendTiming) {
	clock := clockwork.NewFakeClock()
	b := &boxKeys{fakeKeys: fakeKeys{clock: clock, start: clock.Now()}, vim: mode != EditorPlain, mode: mode}
	timing := DefaultSendTiming()
	timing.Prompt = NewPromptReader(claudeReader.Classify)
	if b.vim {
		b.mode = EditorInsert
		s, _ := b.Screen(context.Background())
		timing.Prompt.Observe(s)
		b.mode = mode
	}
	return b, timing
}

const updatePrompt = "write a brief progress summary to CLAUDE.md noting what you accomplished, then continue working."

// runSubmit runs Submit on ctx while advancing the fake clock each time
// it waits.
func runSubmit(t *testing.T, ctx context.Context, b *boxKeys, text string, timing SendTiming) error {
	t.Helper()
	done := make(chan error, 1)
	drive, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	go func() { done <- Submit(ctx, b, text, timing, b.clock); stop() }()
	for {
		if err := b.clock.BlockUntilContext(drive, 1); err != nil {
			return <-done
		}
		b.clock.Advance(50 * time.Millisecond)
	}
}

func TestSubmit_VerifiedText(t *testing.T) {
	b, timing := newBox(EditorPlain)
	if err := runSubmit(t, context.Background(), b, updatePrompt, timing); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.submitted, []string{updatePrompt}) {
		t.Fatalf("submitted %q", b.submitted)
	}
	// A paste shown as its placeholder is the text typed.
	b, timing = newBox(EditorInsert)
	six := "line one\nline two\nline three\nline four\nline five\nline six"
	b.onType = func(b *boxKeys) { b.input = "[Pasted text #1 +5 lines]" }
	if err := runSubmit(t, context.Background(), b, six, timing); err != nil {
		t.Fatal(err)
	}
	if len(b.submitted) != 1 {
		t.Fatalf("submitted %q", b.submitted)
	}
}

// TestGuard_SubmitBeforeType: Submit types nothing into a box that is not
// there, holds text, or takes letters as vim commands it cannot leave.
func TestGuard_SubmitBeforeType(t *testing.T) {
	for _, tc := range []struct {
		name    string
		set     func(b *boxKeys)
		mode    EditorMode
		wantErr string
	}{
		{"no box", func(b *boxKeys) { b.noBox = true }, EditorPlain, "no prompt box on screen; nothing typed"},
		{"text", func(b *boxKeys) { b.input = "half a thought" }, EditorPlain, `already holds "half a thought"`},
		{"visual", func(*boxKeys) {}, EditorVisual, "vim VISUAL mode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, timing := newBox(tc.mode)
			tc.set(b)
			err := runSubmit(t, context.Background(), b, updatePrompt, timing)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Submit = %v, want %q", err, tc.wantErr)
			}
			if len(b.calls) != 0 {
				t.Fatalf("pressed or typed %q", b.calls)
			}
		})
	}
}

// TestGuard_SubmitVimNormal: in vim's NORMAL mode Submit presses i, sees
// INSERT, and Claude receives the exact text; without the i, vim would
// have eaten "write a".
func TestGuard_SubmitVimNormal(t *testing.T) {
	b, timing := newBox(EditorNormal)
	if err := runSubmit(t, context.Background(), b, updatePrompt, timing); err != nil {
		t.Fatalf("Submit = %v (calls %q)", err, b.calls)
	}
	if !slices.Equal(b.submitted, []string{updatePrompt}) {
		t.Fatalf("submitted %q, want the exact prompt", b.submitted)
	}
	if !strings.HasSuffix(b.calls[0], "press i") {
		t.Fatalf("calls %q, want i first", b.calls)
	}
}

// TestGuard_SubmitInsertConfirmed: an i that does not bring INSERT mode
// (a box that ignores it) stops Submit before it types.
func TestGuard_SubmitInsertConfirmed(t *testing.T) {
	b, timing := newBox(EditorNormal)
	b.vim, b.mode = true, EditorVisual // i does nothing in this fake's VISUAL mode
	timing.Prompt = NewPromptReader(func(s Screen) ScreenFacts {
		f := claudeReader.Classify(s)
		f.EditorMode = EditorNormal // what a reader that saw vim reads here
		return f
	})
	err := runSubmit(t, context.Background(), b, updatePrompt, timing)
	if err == nil || !strings.Contains(err.Error(), "pressed i to leave vim NORMAL mode") {
		t.Fatalf("Submit = %v", err)
	}
	if slices.ContainsFunc(b.calls, func(c string) bool { return strings.Contains(c, "type ") }) {
		t.Fatalf("typed: %q", b.calls)
	}
}

// TestGuard_SubmitVimOff: vim was turned off since its indicator was
// seen; the i goes into the box as text, is taken back, and vim is
// forgotten, so the next send types the text at once.
func TestGuard_SubmitVimOff(t *testing.T) {
	b, timing := newBox(EditorNormal)
	b.vim = false
	err := runSubmit(t, context.Background(), b, updatePrompt, timing)
	if err == nil || !strings.Contains(err.Error(), "vim mode is off") || !strings.Contains(err.Error(), "taken back") {
		t.Fatalf("Submit = %v", err)
	}
	if b.input != "" || len(b.submitted) != 0 {
		t.Fatalf("box %q, submitted %q", b.input, b.submitted)
	}
	if err := runSubmit(t, context.Background(), b, updatePrompt, timing); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.submitted, []string{updatePrompt}) {
		t.Fatalf("submitted %q", b.submitted)
	}
}

// TestGuard_SubmitVerifiesBeforeEnter: a box that does not show the text
// typed (vim ate part of it) gets no Enter, and the error says what it
// shows.
func TestGuard_SubmitVerifiesBeforeEnter(t *testing.T) {
	b, timing := newBox(EditorNormal)
	timing.Prompt = NewPromptReader(claudeReader.Classify) // it never saw vim's indicator
	err := runSubmit(t, context.Background(), b, updatePrompt, timing)
	if err == nil || !strings.Contains(err.Error(), `the prompt box shows "brief progress summary`) || !strings.Contains(err.Error(), "Enter not pressed") {
		t.Fatalf("Submit = %v", err)
	}
	if b.enters != 0 {
		t.Fatalf("Enter pressed: %q", b.calls)
	}
}

// TestGuard_SubmitCancelTakesBack: cancelled after the text was typed and
// before Enter, Submit deletes exactly its own text.
func TestGuard_SubmitCancelTakesBack(t *testing.T) {
	for _, tc := range []struct {
		name, text, shown string
		backspaces        int
	}{
		{"typed", "write a summary", "", len("write a summary")},
		{"pasted", "line one\nline two\nline three", "[Pasted text #1 +2 lines]", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, timing := newBox(EditorInsert)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			b.onType = func(b *boxKeys) {
				if tc.shown != "" {
					b.input = tc.shown
				}
				cancel()
			}
			err := runSubmit(t, ctx, b, tc.text, timing)
			if err == nil || !strings.Contains(err.Error(), "taken back out of the prompt box") {
				t.Fatalf("Submit = %v", err)
			}
			if b.input != "" || b.enters != 0 {
				t.Fatalf("box %q, %d Enter presses", b.input, b.enters)
			}
			if n := countCalls(b.calls, "press Backspace"); n != tc.backspaces {
				t.Fatalf("%d Backspace presses, want %d", n, tc.backspaces)
			}
		})
	}
}

// TestGuard_SubmitTakeBackOnlyItsOwn: a box that shows more than the text
// typed (a person typed too) is left alone.
func TestGuard_SubmitTakeBackOnlyItsOwn(t *testing.T) {
	b, timing := newBox(EditorPlain)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.onType = func(b *boxKeys) { b.input += " and mine"; cancel() }
	err := runSubmit(t, ctx, b, "write a summary", timing)
	if err == nil || !strings.Contains(err.Error(), "left alone") {
		t.Fatalf("Submit = %v", err)
	}
	if n := countCalls(b.calls, "press "); n != 0 {
		t.Fatalf("pressed keys: %q", b.calls)
	}
	if b.input != "write a summary and mine" {
		t.Fatalf("box %q", b.input)
	}
}

// TestGuard_SubmitCancelAfterEnter: cancelled after an Enter, Submit
// presses nothing more, not even when the screen did not change, and
// reports the text as sent: it may be submitted, and a send reported as
// failed is typed again.
func TestGuard_SubmitCancelAfterEnter(t *testing.T) {
	b, timing := newBox(EditorPlain)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.afterEnter = func(b *boxKeys) { b.submitted = b.submitted[:0]; b.input = "write a summary"; cancel() }
	err := runSubmit(t, ctx, b, "write a summary", timing)
	if err != nil {
		t.Fatalf("Submit = %v, want nil: the text may be submitted", err)
	}
	if n := countCalls(b.calls, "press "); n != 1 {
		t.Fatalf("calls %q, want one Enter and nothing after", b.calls)
	}
}

func countCalls(calls []string, what string) int {
	n := 0
	for _, c := range calls {
		if strings.Contains(c, what) {
			n++
		}
	}
	return n
}

// An Enter that changes the screen but leaves the text in the box was
// taken short of a submit (OpenCode's first Enter completes a slash
// command from its popup): Enter is pressed again, once the box showed
// the text for a whole verify timeout. A box that empties a moment after
// its Enter took it: one Enter only.
func TestSubmit_EnterThatLeavesTheText(t *testing.T) {
	b, timing := newBox(EditorPlain)
	popup := true
	b.afterEnter = func(b *boxKeys) {
		if popup {
			// The popup closed; the command is still in the box.
			popup, b.input, b.submitted = false, "/new", b.submitted[:len(b.submitted)-1]
		}
	}
	if err := runSubmit(t, context.Background(), b, "/new", timing); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.submitted, []string{"/new"}) || b.enters != 2 {
		t.Fatalf("submitted %q after %d Enters, want /new after 2", b.submitted, b.enters)
	}

	b, timing = newBox(EditorPlain)
	late := 0
	b.afterEnter = func(b *boxKeys) {
		// The box redraws late: the text shows for one more look.
		late, b.input = 1, updatePrompt
	}
	b.onLook = func(b *boxKeys) {
		if late > 0 {
			if late++; late > 2 {
				b.input, late = "", 0
			}
		}
	}
	if err := runSubmit(t, context.Background(), b, updatePrompt, timing); err != nil {
		t.Fatal(err)
	}
	if b.enters != 1 {
		t.Fatalf("%d Enters for a box that emptied late, want 1\n%s", b.enters, strings.Join(b.calls, "\n"))
	}
}
