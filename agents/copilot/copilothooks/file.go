package copilothooks

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/codeman-dev/codeman/hooks"
)

// fileVersion is the one version of Copilot's hooks files codeman knows
// and writes.
const fileVersion = "1"

// maxFileSize bounds a hooks or settings file codeman reads: 1 MiB. Its
// own hooks file is under 2 KiB.
const maxFileSize = 1 << 20

// commands tells codeman's hook commands from others.
type commands struct {
	current string          // what codeman writes, before the event
	exact   map[string]bool // this binary's commands, whatever its name
}

func newCommands(binary, handler string) commands {
	c := commands{current: hooks.InstallOptions{Binary: binary, Handler: handler}.Command(), exact: map[string]bool{}}
	c.exact[c.current] = true
	if filepath.IsAbs(binary) {
		c.exact[hooks.InstallOptions{Binary: binary}.Command()] = true
		c.exact[hooks.InstallOptions{Handler: filepath.Join(filepath.Dir(binary), hooks.HandlerName)}.Command()] = true
	}
	return c
}

// ours reports whether command runs codeman's handler: one of this
// binary's, or codeman-hook or `codeman hook` at another absolute path,
// the path written plain or quoted as one shell word.
func (c commands) ours(command string) bool {
	if c.exact[command] {
		return true
	}
	word, isHook := strings.CutSuffix(command, " hook")
	prog := hooks.CommandProgram(command)
	if !filepath.IsAbs(prog) || !slices.Contains([]string{hooks.ShellQuote(prog), prog, "'" + prog + "'", `"` + prog + `"`}, word) {
		return false
	}
	if isHook {
		return filepath.Base(prog) == "codeman"
	}
	return filepath.Base(prog) == hooks.HandlerName
}

// hookFor is the hook object codeman writes for event.
func (c commands) hookFor(event string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"command","bash":%s,"timeoutSec":%d}`, hooks.QuoteJSON(c.current+" "+event), hooks.HookTimeout))
}

// own reports whether raw is a hook of codeman's, and its command without
// the event: {"type": "command", "bash": "<codeman's command> <word>"}
// with a timeoutSec or none, and nothing else.
func (c commands) own(raw json.RawMessage) (command string, ok bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", false
	}
	var typ, bash string
	if json.Unmarshal(obj["type"], &typ) != nil || typ != "command" || json.Unmarshal(obj["bash"], &bash) != nil {
		return "", false
	}
	for k, v := range obj {
		switch k {
		case "type", "bash":
		case "timeoutSec":
			var n json.Number
			if json.Unmarshal(v, &n) != nil {
				return "", false
			}
		default:
			return "", false
		}
	}
	// The event is the last word; the command may hold spaces of its
	// own ("'/my dir/codeman' hook").
	i := strings.LastIndexByte(bash, ' ')
	if i < 0 || !isEventWord(bash[i+1:]) || !c.ours(bash[:i]) {
		return "", false
	}
	return bash[:i], true
}

// isEventWord reports whether s can be an event's name: letters, digits
// and underscores.
func isEventWord(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
}

// hooksFile is a hooks file as read for an edit: the top-level members
// and the members of its hooks object, the events, each value as written.
type hooksFile struct {
	path     string
	top      []hooks.Member
	hooksAt  int // index of "hooks" in top; -1 when there is none
	events   []hooks.Member
	versionp bool // the file names its version
}

// parseHooksFile reads data as a Copilot hooks file. Blank data is an
// empty file. What codeman cannot edit without guessing is an error that
// names the file: invalid JSON, a version it does not know, a hooks value
// that is not an object, a key given twice.
func parseHooksFile(path string, data []byte) (*hooksFile, error) {
	f := &hooksFile{path: path, hooksAt: -1}
	if len(strings.TrimSpace(string(data))) == 0 {
		return f, nil
	}
	if err := hooks.CheckSyntax(path, data); err != nil {
		return nil, err
	}
	top, err := hooks.ParseMembers(data)
	if err != nil {
		return nil, fmt.Errorf("%s: the file is not a JSON object", path)
	}
	if err := noTwice(path, "", top); err != nil {
		return nil, err
	}
	f.top = top
	for i, m := range top {
		switch m.Key {
		case "version":
			if string(m.Value) != fileVersion {
				return nil, fmt.Errorf("%s: version %s, which codeman does not know (it writes version %s)", path, m.Value, fileVersion)
			}
			f.versionp = true
		case "hooks":
			f.hooksAt = i
			if f.events, err = hooks.ParseMembers(m.Value); err != nil {
				return nil, fmt.Errorf("%s: key hooks is not a JSON object", path)
			}
			if err := noTwice(path, "hooks.", f.events); err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}

// noTwice refuses a key given twice, which readers take in different
// ways.
func noTwice(path, prefix string, members []hooks.Member) error {
	seen := map[string]bool{}
	for _, m := range members {
		if seen[m.Key] {
			return fmt.Errorf("%s: key %s%s appears twice", path, prefix, m.Key)
		}
		seen[m.Key] = true
	}
	return nil
}

// foundHook is a hook of codeman's in the file.
type foundHook struct {
	Event, Command string
}

// plan is what an edit of the file found and does.
type plan struct {
	found                   []foundHook // codeman's hooks as read, in file order
	added, updated, removed []hooks.Entry
	copies                  []hooks.Entry // codeman's hooks beyond one per event (part of removed)
	userHooks               int           // hooks of the user's, kept
	userParts               bool          // the file holds anything but codeman's hooks
	changed                 bool
	out                     []byte // the new content, when changed and not remove
	remove                  bool   // nothing is left: the file goes
}

// edit brings the file in line with want: one current hook of codeman's
// per wanted event, in place of the first one there was, every other one
// gone. An empty want uninstalls.
func (f *hooksFile) edit(want []string, c commands) (*plan, error) {
	p := &plan{}
	for _, m := range f.top {
		if m.Key != "version" && m.Key != "hooks" {
			p.userParts = true
		}
	}
	var events []hooks.Member
	for _, ev := range f.events {
		wanted := slices.Contains(want, ev.Key)
		list, ok := hooks.ParseArray(ev.Value)
		if !ok {
			if wanted {
				return nil, fmt.Errorf("%s: key hooks.%s is not a JSON array", f.path, ev.Key)
			}
			p.userParts = true
			events = append(events, ev)
			continue
		}
		if len(list) == 0 {
			p.userParts = true // the user's own empty list
		}
		kept, changed := p.editList(ev.Key, list, wanted, c)
		switch {
		case !changed:
			events = append(events, ev)
		case len(kept) > 0:
			events = append(events, keepKey(ev, hooks.EncodeArray(kept)))
		}
		// An event list codeman's removals emptied goes.
	}
	for _, ev := range want {
		if !slices.ContainsFunc(f.events, func(m hooks.Member) bool { return m.Key == ev }) {
			events = append(events, hooks.NewMember(ev, hooks.EncodeArray([]json.RawMessage{c.hookFor(ev)})))
			p.added = append(p.added, hooks.Entry{Event: ev})
		}
	}
	p.changed = len(p.added)+len(p.updated)+len(p.removed) > 0
	if !p.changed {
		return p, nil
	}
	if len(events) == 0 && !p.userParts {
		p.remove = true
		return p, nil
	}
	out, err := hooks.LayOut(f.encode(events))
	if err != nil {
		return nil, err
	}
	p.out = out
	return p, nil
}

// keepKey is ev with another value, its key spelled as it was.
func keepKey(ev hooks.Member, value json.RawMessage) hooks.Member {
	ev.Value = value
	return ev
}

// editList edits one event's list: it keeps the user's hooks in their
// places, the first of codeman's (made current) when the event is wanted,
// and appends codeman's when there was none.
func (p *plan) editList(event string, list []json.RawMessage, wanted bool, c commands) ([]json.RawMessage, bool) {
	kept := make([]json.RawMessage, 0, len(list)+1)
	changed, seen := false, false
	entry := hooks.Entry{Event: event}
	for _, h := range list {
		command, ok := c.own(h)
		if !ok {
			p.userHooks++
			p.userParts = true
			kept = append(kept, h)
			continue
		}
		p.found = append(p.found, foundHook{Event: event, Command: command})
		switch {
		case wanted && !seen:
			seen = true
			want := c.hookFor(event)
			if !hooks.SameJSON(h, want) {
				p.updated = append(p.updated, entry)
				changed = true
				h = want
			}
			kept = append(kept, h)
		case wanted:
			p.copies = append(p.copies, entry)
			p.removed = append(p.removed, entry)
			changed = true
		default:
			p.removed = append(p.removed, entry)
			changed = true
		}
	}
	if wanted && !seen {
		kept = append(kept, c.hookFor(event))
		p.added = append(p.added, entry)
		changed = true
	}
	return kept, changed
}

// encode writes the file with events as its hooks object, the version
// first when the file named none.
func (f *hooksFile) encode(events []hooks.Member) []byte {
	top := slices.Clone(f.top)
	value := hooks.EncodeMembers(events)
	if f.hooksAt >= 0 {
		top[f.hooksAt].Value = value
	} else {
		top = append(top, hooks.NewMember("hooks", value))
	}
	if !f.versionp {
		top = append([]hooks.Member{hooks.NewMember("version", json.RawMessage(fileVersion))}, top...)
	}
	return hooks.EncodeMembers(top)
}
