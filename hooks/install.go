package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// InstallOptions says which settings file to edit and which program the
// hooks run.
type InstallOptions struct {
	SettingsPath string // from SettingsPath
	Binary       string // absolute path of the codeman binary
	// Handler is the absolute path of codeman-hook, which the hooks run
	// when it is set (FindHandler finds it); when empty they run Binary's
	// hook command.
	Handler string
	// Entries are the agent's hook entries, which Install writes in this
	// order and Uninstall and Status look for. Each agent's installer
	// passes its own; none is an error.
	Entries []Entry
	// Locked says the caller holds the settings file's lock
	// (LockSettings), so Install, Uninstall and Status take none.
	Locked bool
	// Check, when set, sees what an Install or Uninstall is about to
	// write before anything is written: the new content (nil when the
	// file is to go) and codeman's hooks in it. An error from it stops
	// the edit, nothing written. Codex's installer checks with it that
	// config.toml can take the trust the hooks will need.
	Check func(content []byte, planned StatusReport) error
}

// Report says what Install or Uninstall did.
type Report struct {
	SettingsPath string
	Changed      bool   // the file was written, or removed (see Uninstall)
	Backup       string // copy of the previous content, when Changed and there was one
	Original     string // copy of the content before codeman's first write, when this call made it
	Added        []Entry
	Updated      []Entry // codeman's entries rewritten in place (other path or timeout)
	Removed      []Entry
}

// ErrConcurrentChange is returned when another program (Claude Code
// itself, an editor) kept writing the settings file while codeman edited
// it. Nothing of the other program's was overwritten; running the command
// again usually succeeds.
var ErrConcurrentChange = errors.New("the settings file kept changing while codeman edited it")

// maxAttempts bounds the read-edit-write rounds of one Install or
// Uninstall while another program writes the file.
const maxAttempts = 20

// newFileMode is the mode of a settings file Install creates (before the
// umask), as Claude Code's own writes leave it.
const newFileMode = 0o644

// Install merges codeman's hook entries into the settings file, creating it
// (and its directory) when missing. They run opts.Handler, else
// `opts.Binary hook`. Every other key and every hook of the
// user's stays as it was, however much it looks like codeman's: only the
// hooks the record beside the file lists, and those that run codeman's
// commands exactly as it writes them, are codeman's (doc.go); of these
// one per entry stays. Only the layout is
// normalised to Claude Code's own (2-space indent). Entries of an earlier
// install are updated in place. When nothing needs to change the file is
// not touched at all. A write keeps the previous content as
// <file>.codeman-backup and, the first time, the original as
// <file>.codeman-original.
func Install(opts InstallOptions) (Report, error) {
	if !filepath.IsAbs(opts.Binary) {
		return Report{}, fmt.Errorf("install hooks: binary path %q is not absolute", opts.Binary)
	}
	if opts.Handler != "" && !filepath.IsAbs(opts.Handler) {
		return Report{}, fmt.Errorf("install hooks: handler path %q is not absolute", opts.Handler)
	}
	return update(opts, opts.Entries)
}

// Uninstall removes exactly codeman's hooks (recorded, or as codeman
// writes them), and the groups,
// event lists and hooks object that codeman created and only they filled,
// so that Install then Uninstall gives back the original settings: byte for
// byte when nothing else changed meanwhile, a missing file as missing and
// an empty one as empty.
func Uninstall(opts InstallOptions) (Report, error) {
	return update(opts, nil)
}

// valid says what the options lack.
func (o InstallOptions) valid() error {
	switch {
	case o.SettingsPath == "":
		return errors.New("no settings path")
	case len(o.Entries) == 0:
		return errors.New("no hook entries")
	}
	return nil
}

// sidePaths are the files codeman keeps beside a settings file.
type sidePaths struct {
	record, backup, original, conflict string
}

func sideFiles(settings string) sidePaths {
	return sidePaths{
		record:   settings + recordSuffix,
		backup:   settings + backupSuffix,
		original: settings + originalSuffix,
		conflict: settings + conflictSuffix,
	}
}

func update(opts InstallOptions, want []Entry) (Report, error) {
	rep := Report{SettingsPath: opts.SettingsPath}
	if err := opts.valid(); err != nil {
		return rep, fmt.Errorf("edit settings: %w", err)
	}
	mode := LockInstall
	if want == nil {
		mode = LockUninstall
	}
	lock, err := opts.lock(mode)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	side := sideFiles(opts.SettingsPath)
	// Only for restoring the user's layout: a copy that cannot be read
	// is not used.
	original, _, _ := readRegular(side.original)
	for range maxAttempts {
		rec, err := readRecord(side.record)
		if err != nil {
			return rep, err
		}
		sf, err := readSettings(opts.SettingsPath)
		if err != nil {
			return rep, err
		}
		e, out, changed, err := plan(sf, rec, want, opts)
		if err != nil {
			return rep, fmt.Errorf("edit settings %s: %w", sf.path, err)
		}
		rep.Added, rep.Updated, rep.Removed = e.added, e.updated, e.removed
		if !changed {
			if !sameRecord(rec, e.after) {
				return rep, saveRecord(side.record, e.after)
			}
			return rep, nil
		}
		data, remove := finish(out, e.after, e.rec, original)
		if opts.Check != nil {
			if err := opts.Check(data, plannedStatus(data, remove, e.after, opts)); err != nil {
				return rep, err
			}
		}
		err = sf.commit(data, remove, len(e.found) == 0, side, &rep)
		if errors.Is(err, errChanged) {
			continue
		}
		if err != nil {
			return rep, err
		}
		rep.Changed = true
		return rep, saveRecord(side.record, e.after)
	}
	return rep, fmt.Errorf("edit settings %s: %w (%d attempts)", opts.SettingsPath, ErrConcurrentChange, maxAttempts)
}

// plan edits the settings as read. The record applies while any hook of
// codeman's is still in the file; when none is (the user removed them, or
// put back an older file) the file is taken as never touched by codeman.
func plan(sf *settingsFile, rec *record, want []Entry, opts InstallOptions) (*edit, []byte, bool, error) {
	command := opts.Command()
	if rec != nil {
		e := newEdit(want, command, rec, opts.ownCommands(rec))
		e.entries = opts.Entries
		out, changed, err := e.apply(sf.data)
		if err != nil || len(e.found) > 0 {
			return e, out, changed, err
		}
	}
	e := newEdit(want, command, newRecord(sf), opts.ownCommands(nil))
	e.entries, e.fresh = opts.Entries, true
	out, changed, err := e.apply(sf.data)
	return e, out, changed, err
}

// emptyDoc is what an edit leaves of a document with no key.
var emptyDoc = []byte("{}\n")

// finish decides what an edit that leaves nothing of codeman's writes: a
// file codeman created goes again (remove), a blank one comes back blank,
// and one that differs from the original copy in layout only comes back
// as that copy.
func finish(out []byte, after, start *record, original []byte) (data []byte, remove bool) {
	if after != nil {
		return out, false
	}
	if bytes.Equal(out, emptyDoc) {
		switch start.Before {
		case beforeAbsent:
			return nil, true
		case beforeBlank:
			return []byte(start.Blank), false
		}
	}
	if !isBlank(original) {
		if laid, err := indent(original); err == nil && bytes.Equal(laid, out) {
			return original, false
		}
	}
	return out, false
}

// commit writes data (or removes the file) in place of what sf read,
// unless another program changed the file since (errChanged). Before
// codeman's first write the content is kept as the original, once; after a
// write the previous content is kept as the backup.
func (sf *settingsFile) commit(data []byte, remove, first bool, side sidePaths, rep *Report) error {
	if err := sf.checkWritable(); err != nil {
		return err
	}
	if !sf.exists {
		// Create the settings directory (~/.claude, DIR/.claude), not
		// the directories above it: a missing home or project is a mistake.
		if err := os.Mkdir(filepath.Dir(sf.target), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create settings dir: %w", err)
		}
		return sf.create(data)
	}
	if first {
		made, err := keepOnce(side.original, sf.data, sf.mode)
		if err != nil {
			return fmt.Errorf("keep original settings: %w", err)
		}
		if made {
			rep.Original = side.original
		}
	}
	var err error
	if remove {
		err = sf.removeFile(side)
	} else {
		err = sf.replace(data, side)
	}
	if err != nil {
		return err
	}
	if err := writeAtomic(side.backup, sf.data, sf.mode); err != nil {
		return fmt.Errorf("back up settings: %w", err)
	}
	rep.Backup = side.backup
	return nil
}

// checkWritable turns a read-only file or directory into a clear error
// instead of silently replacing the file (a rename would succeed on a
// read-only file in a writable directory).
func (sf *settingsFile) checkWritable() error {
	if sf.exists && sf.mode&0o200 == 0 {
		return fmt.Errorf("write settings: %s is read-only (mode %04o)", sf.target, sf.mode)
	}
	dir := filepath.Dir(sf.target)
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("write settings: directory %s is read-only (mode %04o)", dir, info.Mode().Perm())
	}
	return nil
}
