package copilothooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/codeman-dev/codeman/hooks"
)

// StatusReport says where codeman's hooks stand in its hooks file, and
// what else Copilot reads decides about them.
type StatusReport struct {
	Path      string
	Exists    bool                   // the hooks file exists
	Installed []hooks.InstalledEntry // codeman's hooks in it, in file order
	Missing   []hooks.Entry          // events Install would add
	Outdated  []hooks.Entry          // hooks Install would rewrite or remove
	Copies    []hooks.Entry          // codeman's hooks beyond one per event, which Install removes
	UserHooks int                    // hooks of the user's in the file
	// Disabled are the settings files that set disableAllHooks: Copilot
	// then runs no hook at all.
	Disabled []string
	// Elsewhere are copies of codeman's hooks in other files Copilot
	// reads, which it runs besides the file's: each event then reaches
	// codeman more than once. codeman leaves them to the person.
	Elsewhere []Elsewhere
	// Unread are the files that could not be read for those, each with
	// why.
	Unread []string
}

// Elsewhere is a file besides codeman's hooks file that holds hooks of
// codeman's.
type Elsewhere struct {
	Path    string
	Entries []hooks.Entry
}

// UpToDate reports whether Install would change nothing.
func (r StatusReport) UpToDate() bool {
	return len(r.Installed) > 0 && len(r.Missing) == 0 && len(r.Outdated) == 0 && len(r.Copies) == 0
}

// hooksStatus is r as the hooks package's helpers read it.
func (r StatusReport) hooksStatus() hooks.StatusReport {
	return hooks.StatusReport{SettingsPath: r.Path, Exists: r.Exists, Installed: r.Installed, Missing: r.Missing, Outdated: r.Outdated, Copies: r.Copies}
}

// Sources are the other files Copilot reads hooks and settings from,
// besides codeman's hooks file.
type Sources struct {
	Settings []string // settings files: disableAllHooks and a hooks object
	HookDirs []string // directories of *.json hooks files
}

// userSources are what a user-level install sits beside: the user's
// settings and the other files of the user's hooks directory.
func userSources(home string) Sources {
	return Sources{Settings: []string{SettingsPath(home)}, HookDirs: []string{filepath.Dir(HooksPath(home))}}
}

// projectSources are what a repository's install sits beside: the
// repository's settings and hooks files, and the user's, which Copilot
// runs as well (disableAllHooks there turns off the repository's hooks
// too).
func projectSources(dir, home string) Sources {
	s := Sources{Settings: projectSettings(dir), HookDirs: []string{filepath.Dir(ProjectHooksPath(dir))}}
	if home != "" {
		u := userSources(home)
		s.Settings = append(s.Settings, u.Settings...)
		s.HookDirs = append(s.HookDirs, u.HookDirs...)
	}
	return s
}

// Status reads codeman's hooks file and the other sources, and reports
// codeman's hooks and what decides whether they run. It changes nothing.
func Status(opts Options, src Sources) (StatusReport, error) {
	rep := StatusReport{Path: opts.Path}
	if err := opts.valid(); err != nil {
		return rep, fmt.Errorf("read Copilot hooks: %w", err)
	}
	lock, err := hooks.LockSettings(opts.Path, hooks.LockRead)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	ef, err := openHooksFile(opts.Path)
	if err != nil {
		return rep, err
	}
	rep.Exists = ef.Exists()
	f, err := parseHooksFile(opts.Path, ef.Data())
	if err != nil {
		return rep, err
	}
	p, err := f.edit(Events, opts.commands())
	if err != nil {
		return rep, err
	}
	rep.Missing, rep.Copies, rep.UserHooks = p.added, p.copies, p.userHooks
	// Copies are in removed as well; the rest of removed is outdated.
	rep.Outdated = append(slices.Clone(p.updated), without(p.removed, p.copies)...)
	for _, h := range p.found {
		rep.Installed = append(rep.Installed, hooks.InspectCommand(hooks.Entry{Event: h.Event}, h.Command, opts.Binary, opts.Handler))
	}
	rep.scan(opts, src)
	return rep, nil
}

// without is entries less one of each of drop.
func without(entries, drop []hooks.Entry) []hooks.Entry {
	out := slices.Clone(entries)
	for _, d := range drop {
		if i := slices.Index(out, d); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// scan reads the other sources for disableAllHooks and copies of
// codeman's hooks.
func (r *StatusReport) scan(opts Options, src Sources) {
	c := opts.commands()
	for _, path := range src.Settings {
		doc, ok := r.readJSON(path)
		if !ok {
			continue
		}
		var s struct {
			DisableAllHooks bool            `json:"disableAllHooks"`
			Hooks           json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(doc, &s) != nil {
			continue // another shape: Copilot reports it
		}
		if s.DisableAllHooks {
			r.Disabled = append(r.Disabled, path)
		}
		r.note(path, s.Hooks, c)
	}
	for _, dir := range src.HookDirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json")) // a bad pattern only
		for _, path := range files {
			if path == opts.Path {
				continue
			}
			doc, ok := r.readJSON(path)
			if !ok {
				continue
			}
			var h struct {
				Hooks json.RawMessage `json:"hooks"`
			}
			if json.Unmarshal(doc, &h) == nil {
				r.note(path, h.Hooks, c)
			}
		}
	}
}

// readJSON reads a file Copilot reads as JSON with comments; a missing
// one is no source, one that cannot be read is noted.
func (r *StatusReport) readJSON(path string) ([]byte, bool) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	case err == nil && info.Mode().IsRegular() && info.Size() > maxFileSize:
		err = fmt.Errorf("%d bytes, larger than codeman reads", info.Size())
	case err == nil:
		var data []byte
		if data, _, err = hooks.ReadRegular(path); err == nil {
			data = stripJSONC(data)
			if err = hooks.CheckSyntax(path, data); err == nil {
				return data, true
			}
			r.Unread = append(r.Unread, err.Error())
			return nil, false
		}
	}
	r.Unread = append(r.Unread, path+": "+err.Error())
	return nil, false
}

// note records the hooks of codeman's in a hooks object read from path.
func (r *StatusReport) note(path string, raw json.RawMessage, c commands) {
	var events map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &events) != nil {
		return
	}
	var found []hooks.Entry
	for _, ev := range slices.Sorted(maps.Keys(events)) {
		list, _ := hooks.ParseArray(events[ev])
		for _, h := range list {
			if _, ok := c.own(h); ok {
				found = append(found, hooks.Entry{Event: ev})
			}
		}
	}
	if len(found) > 0 {
		r.Elsewhere = append(r.Elsewhere, Elsewhere{Path: path, Entries: found})
	}
}
