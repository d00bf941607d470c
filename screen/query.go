package screen

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Every -Q reply also shows on the message line of a person attached to
// the session, for a few seconds (screen 4.9). So codeman queries only
// when it must: when it starts watching a window, when the window's size
// seems to have changed, and when a hardcopy did not come.

// windowSize asks for the window's size with `-Q info`, which answers
// "(1,7)/(100,30)+1024 +(+)flow UTF-8 0(title)": cursor, then size.
// A window keeps the size of the display that showed it last, and 80x24
// when none ever did.
func windowSize(ctx context.Context, r Runner, w Window) (width, height int, err error) {
	out, err := query(ctx, r, w, "info")
	if err != nil {
		return 0, 0, fmt.Errorf("read size of %s: %w", w.Address(), err)
	}
	width, height, err = parseInfoSize(out)
	if err != nil {
		return 0, 0, fmt.Errorf("read size of %s: %w", w.Address(), err)
	}
	return width, height, nil
}

// parseInfoSize reads the "/(W,H)" part of an info reply.
func parseInfoSize(info string) (int, int, error) {
	_, rest, ok := strings.Cut(info, "/(")
	size, _, ok2 := strings.Cut(rest, ")")
	ws, hs, ok3 := strings.Cut(size, ",")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || !ok2 || !ok3 || err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return 0, 0, fmt.Errorf("unexpected info reply %q: want (X,Y)/(WIDTH,HEIGHT) and more", strings.TrimSpace(info))
	}
	return w, h, nil
}
