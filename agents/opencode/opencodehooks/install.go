package opencodehooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/codeman-dev/codeman/hooks"
)

// Options say which plugin file to write and which program it runs.
type Options struct {
	// Path is codeman's plugin: PluginPath of OpenCode's config dir or of
	// a project's .opencode. Install creates the config dir when missing
	// (the global one with its parents, a project's alone) and its
	// plugins dir.
	Path    string
	Binary  string // absolute path of the codeman binary
	Handler string // absolute path of codeman-hook (hooks.FindHandler); "" runs `Binary hook`
}

// command is what the plugin Install writes runs.
func (o Options) command() []string { return commandOf(o.Binary, o.Handler) }

// Command is the command line of the plugin's runs, before the event.
func (o Options) Command() string { return shellCommand(o.command()) }

func (o Options) valid() error {
	switch {
	case !filepath.IsAbs(o.Path):
		return fmt.Errorf("plugin file %q is not absolute", o.Path)
	case !filepath.IsAbs(o.Binary):
		return fmt.Errorf("binary path %q is not absolute", o.Binary)
	case o.Handler != "" && !filepath.IsAbs(o.Handler):
		return fmt.Errorf("handler path %q is not absolute", o.Handler)
	}
	return nil
}

// Report says what Install or Uninstall did.
type Report struct {
	Path    string
	Changed bool // the file was written, or removed
	// Added, Updated, Removed: the plugin was written where there was
	// none, rewritten for another command (Previous), or removed.
	Added, Updated, Removed bool
	Previous                []string
}

// newFileMode is the plugin's mode before the umask: it holds a command,
// nothing secret.
const newFileMode = 0o644

// maxFileSize bounds a file read at the plugin's path: 64 KiB. The plugin
// is under 8 KiB.
const maxFileSize = 64 << 10

// maxAttempts bounds the read-write rounds while another program keeps
// writing the file.
const maxAttempts = 20

// Install writes codeman's plugin, running this binary's handler, unless
// it is there as such already: then the file is not touched. A file at
// the path that is not codeman's plugin as codeman writes it is refused.
func Install(opts Options) (Report, error) { return update(opts, true) }

// Uninstall removes codeman's plugin. A file at the path that is not
// codeman's plugin as codeman writes it is refused.
func Uninstall(opts Options) (Report, error) { return update(opts, false) }

func update(opts Options, install bool) (Report, error) {
	rep := Report{Path: opts.Path}
	if err := opts.valid(); err != nil {
		return rep, fmt.Errorf("edit OpenCode plugin: %w", err)
	}
	mode := hooks.LockUninstall
	if install {
		mode = hooks.LockInstall
		if err := makeConfigDir(filepath.Dir(filepath.Dir(opts.Path))); err != nil {
			return rep, err
		}
	}
	lock, err := hooks.LockSettings(opts.Path, mode)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	want := opts.command()
	for range maxAttempts {
		ef, err := openPlugin(opts.Path)
		if err != nil {
			return rep, err
		}
		found, err := ownPlugin(opts.Path, ef)
		if err != nil {
			return rep, err
		}
		switch {
		case install && slices.Equal(found, want), !install && !ef.Exists():
			return rep, nil
		case install:
			err = ef.Commit(render(want), newFileMode)
		default:
			err = ef.Remove()
		}
		if errors.Is(err, hooks.ErrFileChanged) {
			continue
		}
		if err != nil {
			return rep, err
		}
		rep.Changed = true
		switch {
		case !install:
			rep.Removed, rep.Previous = true, found
		case found == nil:
			rep.Added = true
		default:
			rep.Updated, rep.Previous = true, found
		}
		return rep, nil
	}
	return rep, fmt.Errorf("edit %s: %w (%d attempts)", opts.Path, hooks.ErrConcurrentChange, maxAttempts)
}

// makeConfigDir creates the config dir the plugins dir lies in when
// missing: a project's .opencode alone (a missing project is a mistake),
// the global one with its parents ($XDG_CONFIG_HOME, ~/.config).
// hooks.LockSettings creates the plugins dir.
func makeConfigDir(dir string) error {
	var err error
	if filepath.Base(dir) == ".opencode" {
		err = os.Mkdir(dir, 0o755)
	} else {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return nil
}

// openPlugin reads the file at the plugin's path for an edit: a file
// codeman writes itself (hooks.ReadOwnFile).
func openPlugin(path string) (*hooks.EditedFile, error) {
	return hooks.ReadOwnFile(path, "plugin file", maxFileSize)
}

// ownPlugin is the command of codeman's plugin as read, nil when the file
// is missing; a file that is not codeman's plugin as codeman writes it is
// an error naming it.
func ownPlugin(path string, ef *hooks.EditedFile) ([]string, error) {
	if !ef.Exists() {
		return nil, nil
	}
	switch who, command := readPlugin(ef.Data()); who {
	case ownerCodeman:
		return command, nil
	case ownerEdited:
		return nil, fmt.Errorf("plugin file %s is codeman's plugin edited by hand: codeman neither overwrites nor removes it; move it aside to keep your changes, or remove it, and install again", path)
	}
	return nil, fmt.Errorf("plugin file %s is not codeman's plugin: codeman neither overwrites nor removes it; move it aside, or give it another name, and install again", path)
}
