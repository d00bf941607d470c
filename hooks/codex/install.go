package codex

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
}

// Install merges codeman's hooks (Entries) into $CODEX_HOME/hooks.json
// with the guarantees of hooks.Install: a user's hooks are kept as they
// are, a second install changes nothing, the previous file is backed up.
// Then, unless opts.NoTrust, it writes the trusted hash of each of
// codeman's handlers, at the group and handler indexes it has in the file,
// into config.toml, and removes codeman's hashes left at indexes its
// handlers no longer have; nothing else of config.toml changes.
func Install(opts Options) (Report, error) {
	return update(opts, true)
}

// Uninstall removes codeman's hooks from hooks.json as hooks.Uninstall
// does (a file codeman created goes, the user's original comes back), and
// codeman's trusted hashes from config.toml.
func Uninstall(opts Options) (Report, error) {
	return update(opts, false)
}

func update(opts Options, install bool) (Report, error) {
	rep := Report{ConfigPath: ConfigPath(opts.Home)}
	if !filepath.IsAbs(opts.Home) {
		return rep, fmt.Errorf("edit Codex hooks: Codex home %q is not absolute", opts.Home)
	}
	hopts := opts.hooksOptions()
	if !install || !opts.NoTrust {
		// A config.toml that cannot be edited stops the install before
		// the hooks file changes.
		cf, err := readConfig(rep.ConfigPath)
		if err != nil {
			return rep, err
		}
		if _, err := parseConfig(rep.ConfigPath, cf.Data()); err != nil {
			return rep, err
		}
	}
	// What codeman wrote before, to recognize its trusted hashes.
	ours, err := codemanHashes(opts)
	if err != nil {
		return rep, err
	}
	if install {
		rep.Report, err = hooks.Install(hopts)
	} else {
		rep.Report, err = hooks.Uninstall(hopts)
	}
	if err != nil || (install && opts.NoTrust) {
		return rep, err
	}
	want, order, hashes, err := wantedState(opts, install)
	if err != nil {
		return rep, err
	}
	for _, h := range want {
		ours[h] = true
	}
	hooksFile := HooksPath(opts.Home)
	plan := func(state map[string]map[string]any) stateEdit {
		e := stateEdit{set: map[string]string{}}
		for _, key := range order {
			if h, _ := state[key][trustedHash].(string); h != want[key] {
				e.set[key] = want[key]
				e.keys = append(e.keys, key)
			}
		}
		for _, key := range sortedKeys(state) {
			h, _ := state[key][trustedHash].(string)
			_, wanted := want[key]
			// Only a hash of codeman's, at a key where no handler with that
			// hash is now: one at an exact copy of codeman's hook is the
			// trust of the user's copy.
			if wanted || !isKeyOf(hooksFile, key) || !ours[h] || hashes[key] == h {
				continue
			}
			e.drop = append(e.drop, key)
		}
		return e
	}
	done, err := editConfig(rep.ConfigPath, plan)
	if err != nil {
		return rep, err
	}
	rep.ConfigChanged = !done.empty()
	rep.Trusted, rep.Untrusted = done.keys, done.drop
	return rep, nil
}

// codemanHashes are the trusted hashes codeman's handlers have or had:
// those of its hooks in the file now, and those of its entries running
// either of its commands.
func codemanHashes(opts Options) (map[string]bool, error) {
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
	return ours, nil
}

// wantedState is the trust codeman's handlers need where they are now
// (none after an uninstall), its keys in file order, and the hash of every
// handler in the hooks file.
func wantedState(opts Options, install bool) (want map[string]string, order []string, hashes map[string]string, err error) {
	if hashes, err = readHashes(opts.Home); err != nil {
		return nil, nil, nil, err
	}
	want = map[string]string{}
	if !install {
		return want, nil, hashes, nil
	}
	st, err := hooks.Status(opts.hooksOptions())
	if err != nil {
		return nil, nil, nil, err
	}
	for _, ie := range st.Installed {
		key := StateKey(HooksPath(opts.Home), ie.Event, ie.Group, ie.Handler)
		if h, ok := hashes[key]; ok {
			want[key] = h
			order = append(order, key)
		}
	}
	return want, order, hashes, nil
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
