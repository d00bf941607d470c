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
