package hooks

import (
	"fmt"
	"os"
	"slices"
)

// StatusReport says where and how codeman's hooks are installed.
type StatusReport struct {
	SettingsPath string
	Exists       bool             // the settings file exists
	Installed    []InstalledEntry // codeman's entries, in file order
	Missing      []Entry          // entries Install would add
	Outdated     []Entry          // entries Install would rewrite or remove
	// Copies are hooks of codeman's beyond one per entry, which Install
	// and Uninstall remove: copies of its hooks, or an install's whose
	// record is gone. They run as the others do.
	Copies []Entry
}

// InstalledEntry is one of codeman's entries found in the settings file.
type InstalledEntry struct {
	Entry
	// Group is the index of its group in the event's list, Handler its
	// own in the group's list of hooks, as the file has them.
	Group, Handler int
	Command        string
	Program        string // the binary the command runs
	Executable     bool   // Program exists and is an executable file
	// Current: Program is the binary or the handler given in
	// InstallOptions; an entry of `codeman hook` that install would turn
	// into codeman-hook is current and outdated.
	Current bool
}

// Programs sorts the programs codeman's entries run that are not as they
// should be: broken ones are no executable, other ones are executables
// that are not the binary or handler the status was read for. Each is
// listed once, in file order.
func (r StatusReport) Programs() (broken, other []string) {
	for _, e := range r.Installed {
		switch {
		case !e.Executable && !slices.Contains(broken, e.Program):
			broken = append(broken, e.Program)
		case e.Executable && !e.Current && !slices.Contains(other, e.Program):
			other = append(other, e.Program)
		}
	}
	return broken, other
}

// UpToDate reports whether Install would change nothing.
func (r StatusReport) UpToDate() bool {
	return len(r.Installed) > 0 && len(r.Missing) == 0 && len(r.Outdated) == 0 && len(r.Copies) == 0
}

// Status reads the settings file and reports codeman's entries in it: the
// hooks its record lists and those that run one of codeman's commands as
// codeman writes them, recorded or not. It changes nothing.
func Status(opts InstallOptions) (StatusReport, error) {
	rep := StatusReport{SettingsPath: opts.SettingsPath}
	if err := opts.valid(); err != nil {
		return rep, fmt.Errorf("read settings: %w", err)
	}
	lock, err := opts.lock(LockRead)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	sf, err := readSettings(opts.SettingsPath)
	if err != nil {
		return rep, err
	}
	rep.Exists = sf.exists
	rec, err := readRecord(sideFiles(opts.SettingsPath).record)
	if err != nil {
		return rep, err
	}
	e, _, _, err := plan(sf, rec, opts.Entries, opts)
	if err != nil {
		return rep, fmt.Errorf("read settings %s: %w", sf.path, err)
	}
	rep.fill(e, opts)
	return rep, nil
}

// plannedStatus is what Status will say once data (or no file, remove) is
// written with the record rec.
func plannedStatus(data []byte, remove bool, rec *record, opts InstallOptions) StatusReport {
	rep := StatusReport{SettingsPath: opts.SettingsPath, Exists: !remove}
	sf := &settingsFile{path: opts.SettingsPath, exists: !remove, data: data}
	if e, _, _, err := plan(sf, rec, opts.Entries, opts); err == nil {
		rep.fill(e, opts)
	}
	return rep
}

// fill reports what the edit e found and would do.
func (rep *StatusReport) fill(e *edit, opts InstallOptions) {
	rep.Missing = e.added
	rep.Outdated = append(e.updated, e.removed[:len(e.removed)-len(e.copies)]...)
	rep.Copies = e.copies
	for _, f := range e.found {
		rep.Installed = append(rep.Installed, inspect(f, opts.Binary, opts.Handler))
	}
}

// InspectCommand is what Status reports of a hook of codeman's found in
// another agent's file: the program its command runs, whether that is an
// executable, and whether it is one of ours (the binary, the handler).
func InspectCommand(e Entry, command string, ours ...string) InstalledEntry {
	return inspect(foundHook{Entry: e, Command: command}, ours...)
}

func inspect(f foundHook, ours ...string) InstalledEntry {
	ie := InstalledEntry{Entry: f.Entry, Group: f.Group, Handler: f.Handler, Command: f.Command, Program: commandProgram(f.Command)}
	info, err := os.Stat(ie.Program)
	if err != nil {
		return ie
	}
	ie.Executable = isExecutable(info)
	for _, path := range ours {
		if path == "" {
			continue
		}
		if current, err := os.Stat(path); err == nil && os.SameFile(info, current) {
			ie.Current = true
		}
	}
	return ie
}
