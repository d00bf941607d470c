package simclaude_test

import (
	"os"
	"testing"

	"github.com/codeman-dev/codeman/internal/simclaude"
)

// runMainEnv makes the test binary run the simulated session instead of
// the tests, so that pty and tmux tests can start it as a child process.
const runMainEnv = "SIMCLAUDE_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(simclaude.Main(os.Args[1:], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}
