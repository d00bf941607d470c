package fakeopenai_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that servers leave no goroutine behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
