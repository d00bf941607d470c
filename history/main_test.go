package history

import (
	"testing"

	"go.uber.org/goleak"
)

// Every test closes its writers: no writer goroutine may outlive one.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
