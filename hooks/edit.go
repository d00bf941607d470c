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
// gone. With want empty it uninstalls. It records what it found and did.
type edit struct {
	want    []Entry
	command string          // the command wanted entries run
	hook    json.RawMessage // the hook object wanted entries hold

	found                   []foundHook
	added, updated, removed []Entry
}

// foundHook is one hook of codeman's seen in the file.
type foundHook struct {
	Entry
	Command string
}

func newEdit(want []Entry, binary string) *edit {
	command := hookCommand(binary)
	hook := fmt.Sprintf(`{"type":"command","command":%s,"timeout":%d}`, quote(command), HookTimeout)
	return &edit{want: want, command: command, hook: json.RawMessage(hook)}
}

// apply returns the edited document, or data itself when nothing changed.
// data must have passed checkSyntax.
func (e *edit) apply(data []byte) (out []byte, changed bool, err error) {
	top, err := parseTop(data)
	if err != nil {
		return nil, false, err
	}
	var hooks object
	if i := top.find("hooks"); i >= 0 {
		if hooks, err = parseObject(top[i].value); err != nil {
			return nil, false, fmt.Errorf("key hooks: %w", err)
		}
	}
	pending := slices.Clone(e.want)
	changed, emptied := e.editEvents(&hooks, &pending)
	if err := e.addPending(&hooks, pending); err != nil {
		return nil, false, err
	}
	if !changed && len(pending) == 0 {
		return data, false, nil
	}
	if len(hooks) == 0 && emptied {
		top.remove("hooks")
	} else {
		top.set("hooks", hooks.encode())
	}
	out, err = indent(top.encode())
	return out, true, err
}

// parseTop reads the whole document; an empty file is an empty object.
func parseTop(data []byte) (object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return object{}, nil
	}
	top, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("top level: %w", err)
	}
	return top, nil
}

// editEvents edits every event's groups in place. emptied reports that an
// event lost its last group to a removal (and was dropped).
func (e *edit) editEvents(hooks *object, pending *[]Entry) (changed, emptied bool) {
	kept := (*hooks)[:0]
	for _, ev := range *hooks {
		groups, ok := parseArray(ev.value)
		if !ok { // not a list of groups: nothing of ours can be in it
			kept = append(kept, ev)
			continue
		}
		groups, evChanged, removed := e.editGroups(ev.key, groups, pending)
		changed = changed || evChanged
		if len(groups) == 0 && removed {
			emptied = true
			continue
		}
		if evChanged {
			ev.value = encodeArray(groups)
		}
		kept = append(kept, ev)
	}
	*hooks = kept
	return changed, emptied
}

// editGroups edits one event's groups. removed reports that a group lost
// its last hook to a removal (and was dropped).
func (e *edit) editGroups(event string, groups []json.RawMessage, pending *[]Entry) (out []json.RawMessage, changed, removed bool) {
	for _, g := range groups {
		obj, hi, list, ok := parseGroup(g)
		if !ok { // not a group of hooks: keep it as it is
			out = append(out, g)
			continue
		}
		matcher, _ := obj.stringValue("matcher")
		list, groupChanged, groupRemoved := e.editHooks(Entry{Event: event, Matcher: matcher}, list, pending)
		if !groupChanged {
			out = append(out, g)
			continue
		}
		changed = true
		if len(list) == 0 && groupRemoved {
			removed = true
			continue
		}
		obj[hi].value = encodeArray(list)
		out = append(out, obj.encode())
	}
	return out, changed, removed
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

// editHooks keeps the user's hooks of one group, updates codeman's hook
// when the group is a wanted entry still pending, and drops it otherwise.
func (e *edit) editHooks(entry Entry, list []json.RawMessage, pending *[]Entry) (out []json.RawMessage, changed, removed bool) {
	for _, h := range list {
		command, ok := commandOf(h)
		if !ok || !isCodemanCommand(command, e.command) {
			out = append(out, h)
			continue
		}
		e.found = append(e.found, foundHook{Entry: entry, Command: command})
		if i := slices.IndexFunc(*pending, entry.same); i >= 0 {
			*pending = slices.Delete(*pending, i, i+1)
			if sameJSON(h, e.hook) {
				out = append(out, h)
				continue
			}
			e.updated = append(e.updated, entry)
			out = append(out, e.hook)
			changed = true
			continue
		}
		e.removed = append(e.removed, entry)
		changed, removed = true, true
	}
	return out, changed, removed
}

// addPending appends a new group for each wanted entry not found, at the end
// of its event's list; a new event goes at the end of hooks.
func (e *edit) addPending(hooks *object, pending []Entry) error {
	for _, entry := range pending {
		var groups []json.RawMessage
		if i := hooks.find(entry.Event); i >= 0 {
			var ok bool
			if groups, ok = parseArray((*hooks)[i].value); !ok {
				return fmt.Errorf("key hooks.%s: not a JSON array", entry.Event)
			}
		}
		groups = append(groups, e.newGroup(entry))
		hooks.set(entry.Event, encodeArray(groups))
		e.added = append(e.added, entry)
	}
	return nil
}

func (e *edit) newGroup(entry Entry) json.RawMessage {
	var g object
	if entry.Matcher != "" {
		g.set("matcher", quote(entry.Matcher))
	}
	g.set("hooks", encodeArray([]json.RawMessage{e.hook}))
	return g.encode()
}

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
