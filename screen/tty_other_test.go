//go:build !linux

package screen_test

import (
	"errors"
	"os"
)

var errNoPTY = errors.New("the screen integration tests set up ptys on Linux only")

func makeRaw(int) error { return errNoPTY }

func openPTY(int, int) (*os.File, *os.File, error) { return nil, nil, errNoPTY }
