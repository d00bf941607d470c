package copilothooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/codeman-dev/codeman/hooks"
)

// Options say which hooks file to edit and which program its hooks run.
type Options struct {
	// Path is codeman's hooks file: HooksPath of a Copilot home, or
	// ProjectHooksPath of a repository. Install creates the directories
	// it lies in, up to the Copilot home or the repository's .github.
	Path    string
	Binary  string // absolute path of the codeman binary
	Handler string // absolute path of codeman-hook (hooks.FindHandler); "" runs `Binary hook`
}

// Command is the command line of codeman's hooks, before the event.
func (o Options) Command() string { return o.commands().current }

func (o Options) commands() commands { return newCommands(o.Binary, o.Handler) }

// Report says what Install or Uninstall did.
type Report struct {
	Path    string
	Changed bool // the file was written, or removed
	Gone    bool // the file was removed: nothing else was in it
	// Backup is the copy of the previous content, kept when the write
	// replaced or removed anything of the user's.
	Backup                  string
	Added, Updated, Removed []hooks.Entry
	UserHooks               int // hooks of the user's in the file, kept
}

// hooksReport is r as the hooks package's reports print it.
func (r Report) hooksReport() hooks.Report {
	return hooks.Report{SettingsPath: r.Path, Changed: r.Changed, Backup: r.Backup, Added: r.Added, Updated: r.Updated, Removed: r.Removed}
}

// backupSuffix names the copy of the content before a write that changed
// anything of the user's. It does not end in .json, so Copilot does not
// read it as a hooks file.
const backupSuffix = ".codeman-backup"

// newFileMode is the mode of a hooks file Install creates, before the
// umask: it holds commands, nothing secret, and a repository's is read
// like the rest of .github.
const newFileMode = 0o644

// maxAttempts bounds the read-edit-write rounds while another program
// keeps writing the file.
const maxAttempts = 20

// Install writes codeman's hooks (Events) into the file, creating it when
// missing: one current hook per event, the user's hooks and keys kept as
// they are. When nothing needs to change the file is not touched.
func Install(opts Options) (Report, error) { return update(opts, Events) }

// Uninstall removes codeman's hooks from the file, and the file when
// nothing else is left in it.
func Uninstall(opts Options) (Report, error) { return update(opts, nil) }

func (o Options) valid() error {
	switch {
	case !filepath.IsAbs(o.Path):
		return fmt.Errorf("hooks file %q is not absolute", o.Path)
	case !filepath.IsAbs(o.Binary):
		return fmt.Errorf("binary path %q is not absolute", o.Binary)
	case o.Handler != "" && !filepath.IsAbs(o.Handler):
		return fmt.Errorf("handler path %q is not absolute", o.Handler)
	}
	return nil
}

func update(opts Options, want []string) (Report, error) {
	rep := Report{Path: opts.Path}
	if err := opts.valid(); err != nil {
		return rep, fmt.Errorf("edit Copilot hooks: %w", err)
	}
	mode := hooks.LockUninstall
	if want != nil {
		mode = hooks.LockInstall
		if err := makeBase(opts.Path); err != nil {
			return rep, err
		}
	}
	lock, err := hooks.LockSettings(opts.Path, mode)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	c := opts.commands()
	for range maxAttempts {
		ef, err := openHooksFile(opts.Path)
		if err != nil {
			return rep, err
		}
		f, err := parseHooksFile(opts.Path, ef.Data())
		if err != nil {
			return rep, err
		}
		p, err := f.edit(want, c)
		if err != nil {
			return rep, err
		}
		rep.Added, rep.Updated, rep.Removed, rep.UserHooks = p.added, p.updated, p.removed, p.userHooks
		if !p.changed {
			return rep, nil
		}
		if ef.Exists() && p.userParts {
			// Written before the edit, so that the user's bytes are kept
			// whatever happens to the write.
			rep.Backup = opts.Path + backupSuffix
			if err := hooks.WriteAtomic(rep.Backup, ef.Data(), ef.Mode()); err != nil {
				return rep, fmt.Errorf("back up %s: %w", opts.Path, err)
			}
		}
		if p.remove {
			err = ef.Remove()
		} else {
			err = ef.Commit(p.out, newFileMode)
		}
		if errors.Is(err, hooks.ErrFileChanged) {
			continue
		}
		if err != nil {
			return rep, err
		}
		rep.Changed, rep.Gone = true, p.remove
		return rep, nil
	}
	return rep, fmt.Errorf("edit %s: %w (%d attempts)", opts.Path, hooks.ErrConcurrentChange, maxAttempts)
}

// makeBase creates the directory above the hooks directory when missing:
// the Copilot home (private, as it holds the sessions' transcripts) or a
// repository's .github, not what lies above it, since a missing home or
// repository is a mistake. hooks.LockSettings creates the hooks
// directory.
func makeBase(path string) error {
	base := filepath.Dir(filepath.Dir(path))
	perm := os.FileMode(0o700)
	if filepath.Base(base) == ".github" {
		perm = 0o755
	}
	if err := os.Mkdir(base, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create %s: %w", base, err)
	}
	return nil
}

// openHooksFile reads codeman's hooks file for an edit: a file codeman
// writes itself (hooks.ReadOwnFile).
func openHooksFile(path string) (*hooks.EditedFile, error) {
	return hooks.ReadOwnFile(path, "hooks file", maxFileSize)
}
