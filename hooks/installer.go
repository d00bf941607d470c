package hooks

import (
	"fmt"
	"io"
	"strings"
)

// Installer is one agent's hooks installer as `codeman hooks` and the
// doctor drive it. Each agent's home implements it with this package's
// settings editor, and the agent registry names it, so that the commands
// loop over the agents instead of knowing them.
type Installer interface {
	// Flags are the hooks commands' flags the agent takes besides
	// --agent.
	Flags() []Flag
	// Install adds codeman's hooks to the agent's settings, Uninstall
	// takes them out, Status tells where they stand. Each writes for a
	// person what it did or found.
	Install(w io.Writer, r Request) error
	Uninstall(w io.Writer, r Request) error
	Status(w io.Writer, r Request) error
	// Check is the doctor's look at the hooks: what Status finds, as
	// findings with their fixes.
	Check(r Request) []Finding
}

// Flag is a hooks command's flag that one agent's installer takes.
type Flag struct {
	Name        string // "project"
	Usage       string // may name its argument in backquotes: `DIR`
	Bool        bool   // a switch; else it takes a value
	InstallOnly bool   // only `codeman hooks install` takes it
}

// Request is what a hooks command or the doctor asks of an installer.
type Request struct {
	Env     func(string) string // the user's environment, which locates the settings
	Binary  string              // this codeman binary, absolute
	Handler string              // codeman-hook beside it; "" when there is none
	// Flags are the values of the agent's own flags that were given,
	// by name; a switch that is on reads "true".
	Flags map[string]string
}

// Flag returns the value of the agent's flag name, "" when not given.
func (r Request) Flag(name string) string { return r.Flags[name] }

// Options are the install options of r for the settings file at path.
func (r Request) Options(path string, entries []Entry) InstallOptions {
	return InstallOptions{SettingsPath: path, Binary: r.Binary, Handler: r.Handler, Entries: entries}
}

// Level is how bad a finding is, mildest first.
type Level int

// Levels of a finding.
const (
	LevelOK    Level = iota // as it should be
	LevelNote               // worth knowing, nothing to fix
	LevelWarn               // works, but codeman sees less
	LevelError              // broken
)

// Finding is one thing a look at an agent's hooks found, for the doctor.
type Finding struct {
	Name    string // the doctor's name of the check: "hooks", "hooks (codex)"
	Level   Level
	Message string
	Fix     string // what to run or change; "" when nothing
}

// The helpers below print the parts every installer's report shares.

// PrintEntries prints a labelled list of entries; nothing when empty.
func PrintEntries(w io.Writer, label string, entries []Entry) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s: %s\n", label, EntryList(entries))
}

// PrintInstalled reports an install that wrote the settings file: where,
// the command the hooks run, the entries it changed and the backup.
func PrintInstalled(w io.Writer, rep Report, command string) {
	fmt.Fprintf(w, "codeman hooks installed in %s (running %s)\n", rep.SettingsPath, command)
	PrintEntries(w, "added", rep.Added)
	PrintEntries(w, "updated", rep.Updated)
	PrintEntries(w, "removed", rep.Removed)
	PrintBackup(w, rep.Backup)
}

// PrintRemoved reports an uninstall that wrote the settings file.
func PrintRemoved(w io.Writer, rep Report) {
	fmt.Fprintf(w, "codeman hooks removed from %s\n", rep.SettingsPath)
	PrintEntries(w, "removed", rep.Removed)
	PrintBackup(w, rep.Backup)
}

// PrintBackup names the copy of the previous settings a write kept.
func PrintBackup(w io.Writer, backup string) {
	if backup != "" {
		fmt.Fprintf(w, "  previous file kept as %s\n", backup)
	}
}

// HandlerPackage is the package of codeman-hook.
const HandlerPackage = "github.com/codeman-dev/codeman/cmd/codeman-hook"

// PrintFallback says when the hooks run `codeman hook` for want of
// codeman-hook, and how to get it.
func PrintFallback(w io.Writer, r Request) {
	if r.Handler != "" {
		return
	}
	fmt.Fprintf(w, "  no %s beside %s, so the hooks run `codeman hook`, which starts slower;\n", HandlerName, r.Binary)
	fmt.Fprintf(w, "  put it there (go install %s@latest does, beside a codeman installed so) and run codeman hooks install again\n", HandlerPackage)
}

// Copies says how many copies there are: "1 copy", "3 copies".
func Copies(copies []Entry) string {
	if len(copies) == 1 {
		return "1 copy"
	}
	return fmt.Sprintf("%d copies", len(copies))
}

// YesNo is a table cell for a yes-or-no column.
func YesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Changes lists what an install would change in st: "missing: Stop;
// copies: SessionEnd (2)".
func Changes(st StatusReport) string {
	var parts []string
	for _, g := range []struct {
		label   string
		entries []Entry
	}{{"missing", st.Missing}, {"outdated", st.Outdated}, {"copies", st.Copies}} {
		if len(g.entries) > 0 {
			parts = append(parts, g.label+": "+EntryList(g.entries))
		}
	}
	return strings.Join(parts, "; ")
}
