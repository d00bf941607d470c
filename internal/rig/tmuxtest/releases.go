package tmuxtest

import (
	"os/exec"
	"strings"
)

// Releases names the tmux and GNU screen that PATH finds, with their
// paths, for a failed test run to say what it ran on: the same tests run
// on each release of the matrix.
func Releases() string {
	var names []string
	for _, p := range []struct{ prog, flag string }{{"tmux", "-V"}, {"screen", "-v"}} {
		path, err := exec.LookPath(p.prog)
		if err != nil {
			names = append(names, p.prog+" not on PATH")
			continue
		}
		// What it printed is the answer, whatever the exit status.
		out, _ := exec.Command(path, p.flag).Output()
		v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " (")
		names = append(names, v+" ("+path+")")
	}
	return strings.Join(names, ", ")
}
