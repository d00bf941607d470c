package opencodehooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/codeman-dev/codeman/hooks"
)

// StatusReport says where codeman's plugin stands, and what else decides
// whether OpenCode runs it.
type StatusReport struct {
	Path   string
	Exists bool // a file is at the plugin's path: codeman's, as Status read it
	// Plugin is what the plugin runs, when installed.
	Plugin *hooks.InstalledEntry
	// Current: Install would change nothing.
	Current bool
	// Pure: OPENCODE_PURE is set, so OpenCode loads no plugin of the
	// user's, codeman's included.
	Pure bool
	// NoDeps: the config dir lacks the @opencode-ai/plugin OpenCode
	// installs into it at a start, from the npm registry.
	NoDeps bool
	// Also is codeman's plugin of the other config dir OpenCode reads
	// for the project (the user's beside a project's), when there is
	// one: OpenCode runs both, so each event reaches codeman twice.
	Also string
}

// UpToDate reports whether the plugin is installed and Install would
// change nothing.
func (r StatusReport) UpToDate() bool { return r.Plugin != nil && r.Current }

// pluginEvent is the name of the plugin's entry in reports.
const pluginEvent = "plugin"

// Status reads codeman's plugin and what decides whether it runs: env
// (OPENCODE_PURE) and, for a project's, the user's plugin, at also ("" for
// none). It changes nothing. A file at the path that is not codeman's
// plugin as codeman writes it is an error naming it.
func Status(opts Options, env func(string) string, also string) (StatusReport, error) {
	rep := StatusReport{Path: opts.Path}
	if err := opts.valid(); err != nil {
		return rep, fmt.Errorf("read OpenCode plugin: %w", err)
	}
	lock, err := hooks.LockSettings(opts.Path, hooks.LockRead)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	ef, err := openPlugin(opts.Path)
	if err != nil {
		return rep, err
	}
	rep.Exists = ef.Exists()
	command, err := ownPlugin(opts.Path, ef)
	if err != nil {
		return rep, err
	}
	if command != nil {
		e := hooks.InspectCommand(hooks.Entry{Event: pluginEvent}, shellCommand(command), opts.Binary, opts.Handler)
		rep.Plugin, rep.Current = &e, slices.Equal(command, opts.command())
	}
	rep.Pure = isSet(env("OPENCODE_PURE"))
	rep.NoDeps = !hasDeps(filepath.Dir(filepath.Dir(opts.Path)))
	if also != "" && also != opts.Path {
		if ef, err := openPlugin(also); err == nil {
			if command, err := ownPlugin(also, ef); err == nil && command != nil {
				rep.Also = also
			}
		}
	}
	return rep, nil
}

// isSet reads a flag of OpenCode's environment as it does: "1" or "true".
func isSet(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "1" || v == "true"
}

// hasDeps reports whether OpenCode's dependency of a config dir is
// installed there.
func hasDeps(configDir string) bool {
	info, err := os.Stat(filepath.Join(configDir, "node_modules", "@opencode-ai", "plugin", "package.json"))
	return err == nil && info.Mode().IsRegular() || err != nil && !errors.Is(err, fs.ErrNotExist)
}
