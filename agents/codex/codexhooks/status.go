package codexhooks

import (
	"github.com/codeman-dev/codeman/hooks"
)

// Trust states of a handler of codeman's.
const (
	TrustTrusted  = "trusted"   // config.toml holds its hash: it runs
	TrustMissing  = "untrusted" // no hash: Codex asks for review
	TrustModified = "modified"  // another hash: Codex asks for review
	TrustDisabled = "disabled"  // enabled = false: it never runs
)

// HandlerStatus is one of codeman's handlers in hooks.json and its trust.
type HandlerStatus struct {
	hooks.InstalledEntry
	Key   string // its state key in config.toml
	Trust string // one of the Trust* states
	// Line is config.toml's line of the enabled = false that disables it
	// (TrustDisabled), 0 when unknown.
	Line int
}

// StatusReport says where codeman's hooks are installed, what they run
// and whether Codex trusts them.
type StatusReport struct {
	hooks.StatusReport
	ConfigPath string
	Handlers   []HandlerStatus // one per installed handler, in file order
	// ModelNudge says whether config.toml turns off the model-switch menu
	// Codex opens at a usage limit (NudgeShown, NudgeHidden; NudgeUnread
	// when the file was not read).
	ModelNudge string
}

// Disabled lists codeman's handlers that config.toml turns off.
func (r StatusReport) Disabled() []HandlerStatus {
	var out []HandlerStatus
	for _, h := range r.Handlers {
		if h.Trust == TrustDisabled {
			out = append(out, h)
		}
	}
	return out
}

// UpToDate reports whether Install would change nothing and every handler
// of codeman's runs.
func (r StatusReport) UpToDate() bool {
	if !r.StatusReport.UpToDate() {
		return false
	}
	for _, h := range r.Handlers {
		if h.Trust != TrustTrusted {
			return false
		}
	}
	return true
}

// Status reads hooks.json and config.toml and reports codeman's handlers
// and their trust. It changes nothing.
func Status(opts Options) (StatusReport, error) {
	rep := StatusReport{ConfigPath: ConfigPath(opts.Home)}
	lock, err := hooks.LockSettings(HooksPath(opts.Home), hooks.LockRead)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	hopts := opts.hooksOptions()
	hopts.Locked = true
	st, err := hooks.Status(hopts)
	rep.StatusReport = st
	if err != nil {
		return rep, err
	}
	hashes, err := readHashes(opts.Home)
	if err != nil {
		return rep, err
	}
	cf, err := readConfig(rep.ConfigPath)
	if err != nil {
		return rep, err
	}
	doc, err := parseConfig(rep.ConfigPath, cf.Data())
	if err != nil {
		return rep, err
	}
	rep.ModelNudge = modelNudge(doc)
	state := hookState(doc)
	secs, _ := scanTOML(cf.Data()) // only for line numbers
	for _, ie := range st.Installed {
		key := StateKey(HooksPath(opts.Home), ie.Event, ie.Group, ie.Handler)
		hs := HandlerStatus{InstalledEntry: ie, Key: key, Trust: TrustMissing}
		got, ok := state[key][trustedHash].(string)
		switch {
		case state[key]["enabled"] == false:
			hs.Trust = TrustDisabled
			if ent := findKey(secs, statePath(key, "enabled")); ent != nil {
				hs.Line = lineAt(cf.Data(), ent.start)
			}
		case ok && got == hashes[key]:
			hs.Trust = TrustTrusted
		case ok:
			hs.Trust = TrustModified
		}
		rep.Handlers = append(rep.Handlers, hs)
	}
	return rep, nil
}
