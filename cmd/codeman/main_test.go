package main

import (
	"os"
	"testing"
)

// asCodemanEnv makes the test binary run as codeman itself, so that tests
// can drive the CLI as a program (in a tmux pane, as the daemon it starts)
// without building it.
const asCodemanEnv = "CODEMAN_TEST_AS_CODEMAN"

func TestMain(m *testing.M) {
	if os.Getenv(asCodemanEnv) == "1" {
		main()
		os.Exit(exitOK)
	}
	os.Exit(m.Run())
}
