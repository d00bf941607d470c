package clitest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that panes leave no goroutine behind: the FIFO reader
// ends in cleanup.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
