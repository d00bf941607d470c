package opencodetest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that sessions leave no goroutine behind: the fake API's
// handlers end in cleanup.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
