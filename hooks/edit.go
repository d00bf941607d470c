package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// edit brings the hooks of one settings document in line with want: each
// wanted entry present once and current, every other hook of codeman's
// gone. With want empty it uninstalls. codeman's hooks are those the
// record lists and those that run one of codeman's commands as codeman
// writes them (ownHook); it records what it found and did.
type edit struct {
	want    []Entry
	command string          // what wanted entries' hooks run
	rec     *record         // what codeman wrote before (newRecord before a first install)
	fresh   bool            // rec is newRecord's: there was no record that applies
	ours    map[string]bool // the commands of codeman's hooks
	entries []Entry         // the entries codeman writes, also when want is empty

	found                   []foundHook
	added, updated, removed []Entry
	copies                  []Entry // hooks of codeman's beyond one per entry, removed (part of removed)
	after                   *record // the record once the edit is written; nil when nothing of codeman's is left
}

// foundHook is one hook of codeman's seen in the file, and where: the
// index of its group in the event's list and its own in the group.
type foundHook struct {
	Entry
	Command        string
	Group, Handler int
}

func newEdit(want []Entry, command string, rec *record, ours map[string]bool) *edit {
	return &edit{want: want, command: command, rec: rec, ours: ours, entries: want}
}

// ownHook reports whether h is a hook as codeman writes it, running one of
// its commands: {"type": "command", "command": <ours>} with a timeout or
// none, and nothing else. A hook with anything more, or running anything
// else, is the user's.
func ownHook(h json.RawMessage, ours map[string]bool) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(h, &obj) != nil {
		return false
	}
	var typ, command string
	if json.Unmarshal(obj["type"], &typ) != nil || typ != "command" ||
		json.Unmarshal(obj["command"], &command) != nil || !ours[command] {
		return false
	}
	for k, v := range obj {
		switch k {
		case "type", "command":
		case "timeout":
			var n json.Number
			if json.Unmarshal(v, &n) != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ownAt is a hook of codeman's the record does not list, and where.
type ownAt struct {
	at    loc
	entry Entry // the event and matcher of its group
}

// unrecorded finds, in file order, the hooks of codeman's (ownHook) not
// taken by the record, in groups of an event and matcher codeman writes
// to: an install's that kept no record (it was removed, or is stale), or
// copies of codeman's hooks.
func (e *edit) unrecorded(d *hooksDoc, taken map[loc]bool) []ownAt {
	targets := slices.Clone(e.entries)
	for _, r := range e.rec.Entries {
		targets = append(targets, r.entry())
	}
	var out []ownAt
	for ev, m := range d.hooks {
		if !d.events[ev].ok {
			continue
		}
		for g, grp := range d.events[ev].groups {
			if !grp.ok || !grp.matcherOK {
				continue
			}
			entry := Entry{Event: m.key, Matcher: grp.matcher}
			if !slices.ContainsFunc(targets, entry.same) {
				continue
			}
			for h, hook := range grp.list {
				if at := (loc{ev, g, h}); !taken[at] && ownHook(hook, e.ours) {
					out = append(out, ownAt{at, entry})
				}
			}
		}
	}
	return out
}

// hookFor is the hook object the wanted entry w holds.
func (e *edit) hookFor(w Entry) json.RawMessage { return hookObject(e.command, w.timeout()) }

// hookObject is the hook codeman writes to run command.
func hookObject(command string, timeout int) json.RawMessage {
	hook := fmt.Sprintf(`{"type":"command","command":%s,"timeout":%d}`, quote(command), timeout)
	return json.RawMessage(hook)
}

// hooksDoc is a settings document opened for editing its hooks.
type hooksDoc struct {
	top    object
	hasKey bool       // the document has a hooks key
	hooks  object     // its members, the events
	events []*eventAt // one per member of hooks
}

// eventAt is one event's list of matcher groups; ok is false when the
// value is not a list, which is then kept as it is.
type eventAt struct {
	groups  []*groupAt
	ok      bool
	changed bool
	emptied bool // a removal took its last group
}

// groupAt is one matcher group. ok is false for anything but an object
// with a list of hooks; matcherOK is false when its matcher is not a
// string, which no entry of codeman's has.
type groupAt struct {
	raw       json.RawMessage
	obj       object
	hi        int // index of "hooks" in obj
	list      []json.RawMessage
	matcher   string
	matcherOK bool
	ok        bool
	changed   bool
	dropped   bool
}

// loc is where a hook is: event member, group and hook indexes.
type loc struct{ ev, g, h int }

func openHooks(data []byte) (*hooksDoc, error) {
	top, err := parseTop(data)
	if err != nil {
		return nil, err
	}
	d := &hooksDoc{top: top}
	i := top.find("hooks")
	if i < 0 {
		return d, nil
	}
	d.hasKey = true
	if d.hooks, err = parseObject(top[i].value); err != nil {
		return nil, fmt.Errorf("key hooks: %w", err)
	}
	for _, ev := range d.hooks {
		d.events = append(d.events, parseEvent(ev.value))
	}
	return d, nil
}

func parseEvent(value json.RawMessage) *eventAt {
	raws, ok := parseArray(value)
	e := &eventAt{ok: ok}
	for _, raw := range raws {
		e.groups = append(e.groups, parseGroupAt(raw))
	}
	return e
}

func parseGroupAt(raw json.RawMessage) *groupAt {
	g := &groupAt{raw: raw}
	obj, hi, list, ok := parseGroup(raw)
	if !ok {
		return g
	}
	g.obj, g.hi, g.list, g.ok = obj, hi, list, true
	g.matcherOK = true
	if obj.find("matcher") >= 0 {
		g.matcher, g.matcherOK = obj.stringValue("matcher")
	}
	return g
}

// parseGroup splits a matcher group ({"matcher": ..., "hooks": [...]}) into
// its members, the index of "hooks" and that list of hooks.
func parseGroup(g json.RawMessage) (obj object, hi int, list []json.RawMessage, ok bool) {
	obj, err := parseObject(g)
	if err != nil {
		return nil, -1, nil, false
	}
	if hi = obj.find("hooks"); hi < 0 {
		return nil, -1, nil, false
	}
	list, ok = parseArray(obj[hi].value)
	return obj, hi, list, ok
}

// locate finds the hook r recorded: the last one equal to it in a group of
// its event with its matcher, not already taken by another entry.
func (d *hooksDoc) locate(r recordEntry, taken map[loc]bool) (loc, bool) {
	for ev := len(d.hooks) - 1; ev >= 0; ev-- {
		if d.hooks[ev].key != r.Event || !d.events[ev].ok {
			continue
		}
		groups := d.events[ev].groups
		for g := len(groups) - 1; g >= 0; g-- {
			grp := groups[g]
			if !grp.ok || !grp.matcherOK || matcherKey(grp.matcher) != matcherKey(r.Matcher) {
				continue
			}
			for h := len(grp.list) - 1; h >= 0; h-- {
				at := loc{ev, g, h}
				if !taken[at] && sameJSON(grp.list[h], r.Hook) {
					return at, true
				}
			}
		}
	}
	return loc{}, false
}

func (d *hooksDoc) hookAt(at loc) json.RawMessage { return d.events[at.ev].groups[at.g].list[at.h] }

func (d *hooksDoc) replace(at loc, hook json.RawMessage) {
	ev := d.events[at.ev]
	grp := ev.groups[at.g]
	grp.list[at.h] = hook
	grp.changed, ev.changed = true, true
}

// remove takes out the hooks at locs, dropping a group they leave empty.
func (d *hooksDoc) remove(locs []loc) {
	byGroup := map[[2]int][]int{}
	for _, at := range locs {
		k := [2]int{at.ev, at.g}
		byGroup[k] = append(byGroup[k], at.h)
	}
	for k, hs := range byGroup {
		ev := d.events[k[0]]
		grp := ev.groups[k[1]]
		slices.Sort(hs)
		for i := len(hs) - 1; i >= 0; i-- {
			grp.list = slices.Delete(grp.list, hs[i], hs[i]+1)
		}
		grp.changed, ev.changed = true, true
		grp.dropped = len(grp.list) == 0
	}
	for _, ev := range d.events {
		if !ev.changed {
			continue
		}
		kept := ev.groups[:0]
		for _, g := range ev.groups {
			if !g.dropped {
				kept = append(kept, g)
			}
		}
		ev.groups = kept
		ev.emptied = len(kept) == 0
	}
}

// add appends a new group holding hook to the event's list, creating the
// list (and the hooks object) when missing. It reports what it created.
func (d *hooksDoc) add(entry Entry, hook json.RawMessage) (createdHooks, createdEvent bool, err error) {
	if !d.hasKey {
		d.hasKey, createdHooks = true, true
	}
	ev := d.hooks.find(entry.Event)
	if ev < 0 {
		d.hooks = append(d.hooks, member{rawKey: quote(entry.Event), key: entry.Event})
		d.events = append(d.events, &eventAt{ok: true})
		ev, createdEvent = len(d.hooks)-1, true
	}
	e := d.events[ev]
	if !e.ok {
		return false, false, fmt.Errorf("key hooks.%s: not a JSON array", entry.Event)
	}
	var g object
	if entry.Matcher != "" {
		g.set("matcher", quote(entry.Matcher))
	}
	g.set("hooks", encodeArray([]json.RawMessage{hook}))
	e.groups = append(e.groups, &groupAt{raw: g.encode()})
	e.changed = true
	return createdHooks, createdEvent, nil
}

// encode writes the document back. An event list a removal emptied goes
// too when dropEvent says codeman created it, and then the hooks object
// when it is left empty and dropHooks says codeman created it.
func (d *hooksDoc) encode(dropEvent func(string) bool, dropHooks bool) ([]byte, error) {
	if !d.hasKey {
		return indent(d.top.encode())
	}
	var hooks object
	var events []*eventAt
	dropped := false
	for i, m := range d.hooks {
		ev := d.events[i]
		if ev.emptied && dropEvent(m.key) {
			dropped = true
			continue
		}
		if ev.changed {
			m.value = ev.encode()
		}
		hooks, events = append(hooks, m), append(events, ev)
	}
	d.hooks, d.events = hooks, events
	if len(hooks) == 0 && dropped && dropHooks {
		d.top.remove("hooks")
		d.hasKey = false
	} else {
		d.top.set("hooks", hooks.encode())
	}
	return indent(d.top.encode())
}

func (e *eventAt) encode() json.RawMessage {
	raws := make([]json.RawMessage, len(e.groups))
	for i, g := range e.groups {
		if g.changed {
			g.obj[g.hi].value = encodeArray(g.list)
			g.raw = g.obj.encode()
		}
		raws[i] = g.raw
	}
	return encodeArray(raws)
}

// apply returns the edited document, or data itself when nothing changed.
// data must have passed checkSyntax.
func (e *edit) apply(data []byte) (out []byte, changed bool, err error) {
	d, err := openHooks(data)
	if err != nil {
		return nil, false, err
	}
	rec := e.rec
	// Where each recorded hook is now.
	taken := map[loc]bool{}
	at := make([]loc, len(rec.Entries))
	located := make([]bool, len(rec.Entries))
	for i, r := range rec.Entries {
		if at[i], located[i] = d.locate(r, taken); located[i] {
			taken[at[i]] = true
		}
	}
	own := e.unrecorded(d, taken)
	e.noteFound(d, rec, at, located, own)

	after := &record{Version: recordVersion, Before: rec.Before, Blank: rec.Blank}
	used := make([]bool, len(rec.Entries))
	ownUsed := make([]bool, len(own))
	var pending []Entry
	for _, w := range e.want {
		var where loc
		var was Entry
		if i := slices.IndexFunc(rec.Entries, func(r recordEntry) bool { return r.entry().same(w) }); i >= 0 && located[i] {
			used[i] = true
			where, was = at[i], rec.Entries[i].entry()
		} else if j := slices.IndexFunc(own, func(o ownAt) bool { return o.entry.same(w) }); j >= 0 && !ownUsed[j] {
			// An unrecorded hook of codeman's serves, and is recorded.
			ownUsed[j] = true
			where, was = own[j].at, own[j].entry
		} else {
			pending = append(pending, w)
			continue
		}
		hook := e.hookFor(w)
		if !sameJSON(d.hookAt(where), hook) {
			d.replace(where, hook)
			e.updated = append(e.updated, was)
		}
		after.Entries = append(after.Entries, recordEntry{Event: w.Event, Matcher: w.Matcher, Hook: hook})
	}

	createdHooks := rec.CreatedHooks
	created := map[string]bool{}
	for _, ev := range rec.CreatedEvents {
		created[ev] = true
	}
	if e.fresh {
		// With no record that applies, an event list or hooks object
		// that held nothing but codeman's hooks is taken as codeman's.
		for _, o := range own {
			created[o.entry.Event], createdHooks = true, true
		}
	}
	for _, w := range pending {
		hook := e.hookFor(w)
		newHooks, newEvent, err := d.add(w, hook)
		if err != nil {
			return nil, false, err
		}
		createdHooks = createdHooks || newHooks
		created[w.Event] = created[w.Event] || newEvent
		e.added = append(e.added, w)
		after.Entries = append(after.Entries, recordEntry{Event: w.Event, Matcher: w.Matcher, Hook: hook})
	}

	var gone []loc
	for i, r := range rec.Entries {
		if located[i] && !used[i] {
			gone = append(gone, at[i])
			e.removed = append(e.removed, r.entry())
		}
	}
	for j, o := range own {
		if ownUsed[j] {
			continue
		}
		gone = append(gone, o.at)
		e.removed = append(e.removed, o.entry)
		e.copies = append(e.copies, o.entry)
	}
	d.remove(gone)

	out, changed = data, len(e.added)+len(e.updated)+len(e.removed) > 0
	if changed {
		if out, err = d.encode(func(ev string) bool { return created[ev] }, createdHooks); err != nil {
			return nil, false, err
		}
	}
	if len(after.Entries) > 0 {
		// Only what codeman created and is still there stays its own.
		after.CreatedHooks = createdHooks && d.hasKey
		for ev, ok := range created {
			if ok && d.hooks.find(ev) >= 0 {
				after.CreatedEvents = append(after.CreatedEvents, ev)
			}
		}
		slices.Sort(after.CreatedEvents)
		e.after = after
	}
	return out, changed, nil
}

// noteFound lists the hooks of codeman's found, recorded or not, in file
// order.
func (e *edit) noteFound(d *hooksDoc, rec *record, at []loc, located []bool, own []ownAt) {
	var all []ownAt
	for i := range rec.Entries {
		if located[i] {
			all = append(all, ownAt{at[i], rec.Entries[i].entry()})
		}
	}
	all = append(all, own...)
	slices.SortFunc(all, func(a, b ownAt) int {
		x, y := a.at, b.at
		if x.ev != y.ev {
			return x.ev - y.ev
		}
		if x.g != y.g {
			return x.g - y.g
		}
		return x.h - y.h
	})
	for _, o := range all {
		command, _ := commandOf(d.hookAt(o.at))
		e.found = append(e.found, foundHook{Entry: o.entry, Command: command, Group: o.at.g, Handler: o.at.h})
	}
}

// parseTop reads the whole document; an empty file is an empty object.
func parseTop(data []byte) (object, error) {
	if isBlank(data) {
		return object{}, nil
	}
	top, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("top level: %w", err)
	}
	return top, nil
}

// isBlank reports whether data holds nothing but white space, which Claude
// Code reads as no settings.
func isBlank(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }

// commandOf returns a hook's command, when it is an object with one.
func commandOf(h json.RawMessage) (string, bool) {
	var hook struct {
		Command any `json:"command"`
	}
	if json.Unmarshal(h, &hook) != nil {
		return "", false
	}
	command, ok := hook.Command.(string)
	return command, ok
}

// sameJSON reports whether two JSON values are equal as values: the same
// keys and values in any order and any layout.
func sameJSON(a, b json.RawMessage) bool {
	va, erra := decodeValue(a)
	vb, errb := decodeValue(b)
	return erra == nil && errb == nil && reflect.DeepEqual(va, vb)
}

func decodeValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
