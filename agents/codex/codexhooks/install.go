package codexhooks

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/codeman-dev/codeman/hooks"
)

// Options say which Codex home to edit and which program the hooks run.
type Options struct {
	Home    string // CODEX_HOME, as Home finds it
	Binary  string // absolute path of the codeman binary
	Handler string // absolute path of codeman-hook (hooks.FindHandler); "" runs `Binary hook`
	// NoTrust leaves config.toml alone on install: Codex then shows the new
	// hooks in its "Hooks need review" dialog, and they run once the person
	// trusts them there.
	NoTrust bool
}

// hooksOptions are the options of the hooks file's installer.
func (o Options) hooksOptions() hooks.InstallOptions {
	return hooks.InstallOptions{SettingsPath: HooksPath(o.Home), Binary: o.Binary, Handler: o.Handler, Entries: Entries}
}

// Command is the command line codeman's hooks run.
func (o Options) Command() string { return o.hooksOptions().Command() }

// Report says what Install or Uninstall did: to the hooks file (the
// embedded hooks.Report) and to the trust state in config.toml.
type Report struct {
	hooks.Report
	ConfigPath    string
	ConfigChanged bool     // config.toml was written, or removed
	Trusted       []string // state keys whose trusted hash was written
	Untrusted     []string // state keys whose trusted hash was removed
	// Disabled are codeman's handlers that config.toml turns off with
	// enabled = false, a line codeman leaves to the person.
	Disabled []Disabled
}

// Install merges codeman's hooks (Entries) into $CODEX_HOME/hooks.json
// with the guarantees of hooks.Install: a user's hooks are kept as they
// are, a second install changes nothing, the previous file is backed up.
// Then, unless opts.NoTrust, it writes the trusted hash of each of
// codeman's handlers, at the group and handler indexes it has in the file,
// into config.toml, and removes codeman's hashes left at indexes its
// handlers no longer have; nothing else of config.toml changes. When
// config.toml cannot take that edit (a hash of the user's where one of
// codeman's goes, a hooks table written inline, a read-only file) nothing
// is written at all.
func Install(opts Options) (Report, error) {
	return update(opts, true)
}

// Uninstall removes codeman's hooks from hooks.json as hooks.Uninstall
// does (a file codeman created goes, the user's original comes back), and
// codeman's trusted hashes from config.toml (the file itself only when
// codeman created it and nothing else is left in it).
func Uninstall(opts Options) (Report, error) {
	return update(opts, false)
}

func update(opts Options, install bool) (Report, error) {
	rep := Report{ConfigPath: ConfigPath(opts.Home)}
	if !filepath.IsAbs(opts.Home) {
		return rep, fmt.Errorf("edit Codex hooks: Codex home %q is not absolute", opts.Home)
	}
	// One install or uninstall at a time edits hooks.json, its record,
	// config.toml and its record, under the lock of hooks.json.
	mode := hooks.LockInstall
	if !install {
		mode = hooks.LockUninstall
	}
	lock, err := hooks.LockSettings(HooksPath(opts.Home), mode)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	hopts := opts.hooksOptions()
	hopts.Locked = true
	trust := !install || !opts.NoTrust
	var ours map[string]bool
	if trust {
		// config.toml must take the trust of the hooks as they will be
		// before hooks.json changes: a config that does not parse, or
		// that the edit would refuse, stops the install with nothing
		// written.
		cf, err := readConfig(rep.ConfigPath)
		if err != nil {
			return rep, err
		}
		if _, err := parseConfig(rep.ConfigPath, cf.Data()); err != nil {
			return rep, err
		}
		rec, err := readTrustRecord(rep.ConfigPath)
		if err != nil {
			return rep, err
		}
		// What codeman wrote before, to recognize its trusted hashes.
		if ours, err = codemanHashes(opts, rec); err != nil {
			return rep, err
		}
		hooksFile := HooksPath(opts.Home)
		hopts.Check = func(content []byte, planned hooks.StatusReport) error {
			te, err := planTrust(rep.ConfigPath, cf.Data(), cf.Exists(), rec, trustInputsOf(hooksFile, content, planned, install, ours))
			if err != nil {
				return err
			}
			if te.empty() {
				return nil
			}
			return cf.checkWritable()
		}
	}
	if install {
		rep.Report, err = hooks.Install(hopts)
	} else {
		rep.Report, err = hooks.Uninstall(hopts)
	}
	if err != nil || !trust {
		return rep, err
	}
	in, err := currentInputs(opts, install, ours)
	if err != nil {
		return rep, err
	}
	done, err := editConfig(rep.ConfigPath, in)
	if err != nil {
		return rep, err
	}
	rep.ConfigChanged = !done.empty()
	rep.Trusted, rep.Untrusted, rep.Disabled = done.keys, done.drop, done.disabled
	return rep, nil
}

// currentInputs are the trust inputs of hooks.json as it is now.
func currentInputs(opts Options, install bool, ours map[string]bool) (trustInputs, error) {
	path := HooksPath(opts.Home)
	data, _, err := hooks.ReadRegular(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return trustInputs{}, fmt.Errorf("read hooks %s: %w", path, err)
	}
	hopts := opts.hooksOptions()
	hopts.Locked = true // update holds it
	st, err := hooks.Status(hopts)
	if err != nil {
		return trustInputs{}, err
	}
	return trustInputsOf(path, data, st, install, ours), nil
}

// codemanHashes are the trusted hashes codeman's handlers have or had:
// those of its hooks in the file now, those of its entries running either
// of its commands, and those its trust record lists.
func codemanHashes(opts Options, rec *trustRecord) (map[string]bool, error) {
	hopts := opts.hooksOptions()
	ours := map[string]bool{}
	commands := []string{hopts.Command()}
	if filepath.IsAbs(opts.Binary) {
		commands = append(commands, hooks.InstallOptions{Binary: opts.Binary}.Command())
	}
	for _, e := range Entries {
		for _, c := range commands {
			h, err := Hash(e.Event, e.Matcher, c, effectiveTimeout(e.Event, &e.Timeout))
			if err != nil {
				return nil, err
			}
			ours[h] = true
		}
	}
	hopts.Locked = true // update holds it
	st, err := hooks.Status(hopts)
	if err != nil {
		return nil, err
	}
	hashes, err := readHashes(opts.Home)
	if err != nil {
		return nil, err
	}
	for _, ie := range st.Installed {
		if h, ok := hashes[StateKey(HooksPath(opts.Home), ie.Event, ie.Group, ie.Handler)]; ok {
			ours[h] = true
		}
	}
	if rec != nil {
		for _, e := range rec.Entries {
			ours[e.Hash] = true
		}
	}
	return ours, nil
}

// readHashes reads the hooks file of home: fileHashes, none when missing.
func readHashes(home string) (map[string]string, error) {
	path := HooksPath(home)
	data, _, err := hooks.ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read hooks %s: %w", path, err)
	}
	return fileHashes(path, data), nil
}
