package simclaude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// referenceKeyOrders reads testdata/one-payload-per-event.json (payloads of
// the real CLI) as event name -> the payload's keys in order.
func referenceKeyOrders(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "one-payload-per-event.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	out := map[string][]string{}
	mustDelim(t, dec, '{')
	for dec.More() {
		name := mustToken(t, dec).(string)
		mustDelim(t, dec, '{')
		var keys []string
		for dec.More() {
			keys = append(keys, mustToken(t, dec).(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		mustDelim(t, dec, '}')
		out[name] = keys
	}
	return out
}

func mustToken(t *testing.T, dec *json.Decoder) json.Token {
	t.Helper()
	tok, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func mustDelim(t *testing.T, dec *json.Decoder, d json.Delim) {
	t.Helper()
	if tok := mustToken(t, dec); tok != d {
		t.Fatalf("got %v, want %v", tok, d)
	}
}

// TestPayloads_MatchReferenceShapes runs every scenario and compares the
// key order of the first payload of each event with the real CLI's.
func TestPayloads_MatchReferenceShapes(t *testing.T) {
	s := newSim(t, func(o *Options) { o.AgentTime = 2 * time.Second })
	for _, p := range []struct {
		prompt string
		keys   []string
		wait   time.Duration
	}{
		{prompt: "hello", wait: 4 * time.Second},
		{prompt: "permission", wait: 10 * time.Second, keys: []string{"1"}},
		{prompt: "/init", wait: 5 * time.Second},
		{prompt: "background", wait: 10 * time.Second},
		{prompt: "error", wait: 3 * time.Second},
		{prompt: "/compact", wait: 64 * time.Second},
		{prompt: "/clear"},
	} {
		s.submit(p.prompt)
		s.after(p.wait)
		for _, k := range p.keys {
			s.typeText(k)
			s.after(4 * time.Second)
		}
	}
	ref := referenceKeyOrders(t)
	seen := map[string]bool{}
	for _, p := range s.hooks {
		b, err := p.encode()
		if err != nil || !json.Valid(b) {
			t.Fatalf("payload does not encode: %v", err)
		}
		name := p.get("hook_event_name").(string)
		if kind, ok := p.get("notification_type").(string); ok {
			name += "/" + kind
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		want, ok := ref[name]
		if !ok {
			t.Errorf("%s: not in the reference", name)
			continue
		}
		var got []string
		for _, f := range p {
			got = append(got, f.key)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s keys:\n got %s\nwant %s", name, strings.Join(got, ","), strings.Join(want, ","))
		}
	}
	for name := range ref {
		if !seen[name] && name != "MessageDisplay" {
			t.Errorf("%s never fired", name)
		}
	}
}

func TestPayloads_CommonFields(t *testing.T) {
	s := newSim(t, nil)
	p := s.hooks[0]
	if p.get("session_id") != s.m.session || p.get("cwd") != "/home/dev/proj" ||
		p.get("transcript_path") != "/home/dev/.claude/projects/-home-dev-proj/"+s.m.session+".jsonl" {
		t.Errorf("SessionStart = %v", p)
	}
}

func TestObject_KeepsOrderAndHTML(t *testing.T) {
	b, err := object{{"z", 1}, {"a", "<task-notification>"}, {"m", nil}, {"n", object{}}}.encode()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"z":1,"a":"<task-notification>","m":null,"n":{}}` {
		t.Errorf("got %s", got)
	}
}
