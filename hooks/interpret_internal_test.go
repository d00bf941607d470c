package hooks

import (
	"testing"

	"github.com/codeman-dev/codeman/hooks/spool"
	"github.com/codeman-dev/codeman/respawn"
)

// TestHookKinds_SameNames: every kind a marker can name turns into the
// controller's kind of the same name, and every controller kind has one.
// Marker file names carry the spool kind's name, logs the respawn one's.
func TestHookKinds_SameNames(t *testing.T) {
	seen := map[respawn.HookKind]bool{}
	for _, k := range spool.Kinds() {
		h, ok := hookKinds[k]
		switch {
		case !ok:
			t.Errorf("spool kind %s has no respawn kind", k)
		case h.String() != k.String():
			t.Errorf("spool kind %s turns into respawn kind %s", k, h)
		case seen[h]:
			t.Errorf("two spool kinds turn into respawn kind %s", h)
		}
		seen[h] = true
	}
	for h := respawn.HookKind(1); h.String() != "unknown"; h++ {
		if !seen[h] {
			t.Errorf("respawn kind %s has no spool kind", h)
		}
	}
}
