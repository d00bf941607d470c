package tmux

import "fmt"

// TestedReleases are the tmux releases codeman's tests run on, oldest
// first (docs/multiplexers.md has what codeman relies on in each).
var TestedReleases = []string{"3.2a", "3.3a", "3.4", "3.5a", "3.6b", "3.7c"}

// newestTested is the newest release line in TestedReleases.
var newestTested = Version{Major: 3, Minor: 7}

// ReleaseSupport says how well codeman works with a tmux release.
type ReleaseSupport struct {
	Tested bool   // a release line of TestedReleases
	Note   string // what differs on it, or why it is not tested; "" when nothing
	Fix    string // what to do about Note; "" when nothing needs doing
}

// Support returns what codeman knows of tmux version v, which CheckVersion
// has accepted.
func Support(v Version) ReleaseSupport {
	switch {
	case v.Dev:
		return ReleaseSupport{Note: fmt.Sprintf("a development build: codeman is tested with tmux %s to %s", TestedReleases[0], TestedReleases[len(TestedReleases)-1])}
	case newestTested.Less(v):
		return ReleaseSupport{Note: fmt.Sprintf("newer than the newest release codeman is tested with (%s)", TestedReleases[len(TestedReleases)-1]),
			Fix: "if something does not work, tmux " + TestedReleases[len(TestedReleases)-1] + " is known to"}
	case v.Less(firstClientMessage):
		return ReleaseSupport{Tested: true,
			Note: "needs-you notices are not shown on the status line (tmux 3.2's display-message cannot name a client); the bell and the window's @codeman-needs option still tell",
			Fix:  "tmux 3.3 or newer shows them"}
	case escapesOutput(v):
		return ReleaseSupport{Tested: true, Note: "escapes what its commands print (vis(3)); codeman reads it back"}
	}
	return ReleaseSupport{Tested: true}
}
