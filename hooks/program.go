package hooks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HandlerName is the file name of the dedicated hook handler program,
// cmd/codeman-hook: it does what `codeman hook` does and starts several
// times faster, since it links the marker protocol alone.
const HandlerName = "codeman-hook"

// FindHandler returns the codeman-hook beside the codeman binary at
// binary, as `go install` and the tmux plugin put both, or "" when there is
// no executable file of that name there.
func FindHandler(binary string) string {
	path := filepath.Join(filepath.Dir(binary), HandlerName)
	info, err := os.Stat(path)
	if err != nil || !isExecutable(info) {
		return ""
	}
	return path
}

func isExecutable(info fs.FileInfo) bool {
	return info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}

// Command is the command line of codeman's entries: the handler's
// absolute path, else the binary's and "hook", quoted for the shell when
// they need it.
func (o InstallOptions) Command() string {
	if o.Handler != "" {
		return shellQuote(o.Handler)
	}
	return shellQuote(o.Binary) + " hook"
}

// commandProgram returns the program of a "<program>" or "<program> hook"
// command.
func commandProgram(command string) string {
	prog, _ := strings.CutSuffix(strings.TrimSpace(command), " hook")
	return shellUnquote(strings.TrimSpace(prog))
}

// ownCommands are the commands of codeman's hooks: the ones this binary
// writes, with codeman-hook beside it or without, and those of the hooks
// rec lists (an earlier install's, another binary's).
func (o InstallOptions) ownCommands(rec *record) map[string]bool {
	ours := map[string]bool{o.Command(): true}
	if o.Handler != "" {
		ours[shellQuote(o.Handler)] = true
	}
	if filepath.IsAbs(o.Binary) {
		ours[shellQuote(o.Binary)+" hook"] = true
		ours[shellQuote(filepath.Join(filepath.Dir(o.Binary), HandlerName))] = true
	}
	if rec != nil {
		for _, r := range rec.Entries {
			if c, ok := commandOf(r.Hook); ok {
				ours[c] = true
			}
		}
	}
	return ours
}
