package opencodehooks_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
	"github.com/codeman-dev/codeman/hooks/spool"
)

// driver loads the plugin at argv[2] as OpenCode does and feeds it the
// rows of the JSON lines file argv[3]: {"event": {...}} to the event hook,
// {"hook": name, "input": ..., "output": ...} to that hook. It fails on
// anything the plugin throws or rejects, and prints nothing else; node
// exits once the plugin's runs are over.
const driver = `
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
process.on("unhandledRejection", (e) => { console.error("unhandled", e); process.exit(3); });
const mod = await import(pathToFileURL(process.argv[2]).href);
const hooks = await mod.CodemanPlugin({ directory: "/tmp", worktree: "/" });
for (const line of readFileSync(process.argv[3], "utf8").split("\n")) {
  if (!line) continue;
  const row = JSON.parse(line);
  if (row.event) await hooks.event({ event: row.event });
  else if (hooks[row.hook]) await hooks[row.hook](row.input, row.output);
}
`

// fakeHandler logs each run as a line: its first argument, a tab, its
// stdin.
const fakeHandler = "#!/bin/sh\n{ printf '%s\\t' \"$1\"; cat; printf '\\n'; } >> \"$0.log\"\n"

// runPlugin installs the plugin running handler, feeds it rows under
// node, and returns what node printed.
func runPlugin(t *testing.T, handler string, rows []map[string]any) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("opencodehooks: node not found in PATH: cannot run the plugin")
	}
	dir := t.TempDir()
	opts := opencodehooks.Options{Path: opencodehooks.PluginPath(filepath.Join(dir, "config")), Binary: filepath.Join(dir, "codeman"), Handler: handler}
	if _, err := opencodehooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	// Bun's node:child_process is what OpenCode gives the plugin; node's
	// is the same API.
	writeFile(t, filepath.Join(dir, "driver.mjs"), driver)
	var lines strings.Builder
	for _, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(b, '\n'))
	}
	writeFile(t, filepath.Join(dir, "rows.jsonl"), lines.String())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, filepath.Join(dir, "driver.mjs"), opts.Path, filepath.Join(dir, "rows.jsonl")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return string(out)
}

// run is one run of the handler: its argument and the payload.
type run struct {
	Event   string
	Payload string
}

// runsOf reads the fake handler's log.
func runsOf(t *testing.T, handler string) []run {
	t.Helper()
	data, err := os.ReadFile(handler + ".log")
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []run
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		event, payload, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("log line %q", line)
		}
		out = append(out, run{event, payload})
	}
	return out
}

func newHandler(t *testing.T) string {
	t.Helper()
	h := filepath.Join(t.TempDir(), "codeman-hook")
	writeFile(t, h, fakeHandler)
	if err := os.Chmod(h, 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

func ev(typ string, props map[string]any) map[string]any {
	return map[string]any{"event": map[string]any{"type": typ, "properties": props}}
}

func hook(name string, input, output map[string]any) map[string]any {
	return map[string]any{"hook": name, "input": input, "output": output}
}

// The plugin runs the handler with the event's name once per event codeman
// reads, in order, with the payload trimmed; chatty events, an idle status,
// a repeated busy status or idle, and a child session's events but its
// permission prompts and questions run nothing.
func TestPlugin_Forwards(t *testing.T) {
	handler := newHandler(t)
	root, child := map[string]any{"sessionID": "ses_root"}, map[string]any{"sessionID": "ses_child"}
	busy := map[string]any{"sessionID": "ses_root", "status": map[string]any{"type": "busy"}}
	rows := []map[string]any{
		ev("session.created", map[string]any{"sessionID": "ses_root", "info": map[string]any{"id": "ses_root"}}),
		hook("chat.message", map[string]any{"sessionID": "ses_root", "agent": "build"}, map[string]any{"parts": []any{map[string]any{"text": "secret prompt"}}}),
		ev("session.status", busy),
		ev("session.status", busy),
		ev("message.part.delta", map[string]any{"sessionID": "ses_root", "delta": "Hel"}),
		ev("message.part.updated", map[string]any{"sessionID": "ses_root"}),
		ev("message.updated", map[string]any{"sessionID": "ses_root"}),
		hook("chat.params", map[string]any{"sessionID": "ses_root"}, map[string]any{}),
		hook("tool.execute.before", map[string]any{"tool": "task", "sessionID": "ses_root", "callID": "c1"}, map[string]any{"args": map[string]any{"prompt": "p"}}),
		ev("session.created", map[string]any{"sessionID": "ses_child", "info": map[string]any{"id": "ses_child", "parentID": "ses_root"}}),
		hook("chat.message", child, map[string]any{}),
		ev("session.status", map[string]any{"sessionID": "ses_child", "status": map[string]any{"type": "busy"}}),
		hook("tool.execute.before", map[string]any{"tool": "bash", "sessionID": "ses_child"}, map[string]any{"args": map[string]any{"command": "ls"}}),
		ev("permission.asked", map[string]any{"id": "per_1", "sessionID": "ses_child", "permission": "bash", "patterns": []any{"ls"}, "metadata": map[string]any{"command": "ls"}, "always": []any{"ls *"}, "tool": map[string]any{"callID": "c2"}}),
		ev("permission.replied", map[string]any{"sessionID": "ses_child", "requestID": "per_1", "reply": "reject"}),
		ev("session.error", map[string]any{"sessionID": "ses_child", "error": map[string]any{"name": "UnknownError"}}),
		ev("session.status", map[string]any{"sessionID": "ses_child", "status": map[string]any{"type": "idle"}}),
		ev("session.idle", child),
		hook("tool.execute.after", map[string]any{"tool": "task", "sessionID": "ses_root"}, map[string]any{"output": "long"}),
		hook("tool.execute.before", map[string]any{"tool": "question", "sessionID": "ses_root"}, map[string]any{"args": map[string]any{"questions": []any{map[string]any{"question": "Which one?", "options": []any{"a", "b"}}}}}),
		hook("tool.execute.after", map[string]any{"tool": "question", "sessionID": "ses_root"}, map[string]any{"output": "a"}),
		ev("session.status", map[string]any{"sessionID": "ses_root", "status": map[string]any{"type": "retry", "attempt": 1, "message": "Overloaded", "next": 1}}),
		ev("session.status", busy),
		ev("session.error", map[string]any{"sessionID": "ses_root", "error": map[string]any{"name": "APIError", "data": map[string]any{"message": "Overloaded", "statusCode": 529, "responseBody": strings.Repeat("x", 5000)}}}),
		ev("session.status", map[string]any{"sessionID": "ses_root", "status": map[string]any{"type": "idle"}}),
		ev("session.idle", root),
		ev("session.idle", root),
		hook("chat.message", root, map[string]any{}),
		ev("session.status", busy),
		ev("session.idle", root),
	}
	if out := runPlugin(t, handler, rows); out != "" {
		t.Errorf("node printed %q", out)
	}
	want := []struct{ event, payload string }{
		{"chat.message", `{"type":"chat.message","properties":{"sessionID":"ses_root"}}`},
		{"session.status", `{"type":"session.status","properties":{"sessionID":"ses_root","status":{"type":"busy"}}}`},
		{"tool.execute.before", `{"type":"tool.execute.before","properties":{"sessionID":"ses_root","tool":"task"}}`},
		{"permission.asked", `{"type":"permission.asked","properties":{"sessionID":"ses_child","permission":"bash","metadata":{"command":"ls"},"patterns":["ls"]}}`},
		{"permission.replied", `{"type":"permission.replied","properties":{"sessionID":"ses_child","reply":"reject"}}`},
		{"tool.execute.after", `{"type":"tool.execute.after","properties":{"sessionID":"ses_root","tool":"task"}}`},
		{"tool.execute.before", `{"type":"tool.execute.before","properties":{"sessionID":"ses_root","tool":"question","args":{"questions":[{"question":"Which one?"}]}}}`},
		{"tool.execute.after", `{"type":"tool.execute.after","properties":{"sessionID":"ses_root","tool":"question"}}`},
		{"session.status", `{"type":"session.status","properties":{"sessionID":"ses_root","status":{"type":"retry","message":"Overloaded"}}}`},
		{"session.status", `{"type":"session.status","properties":{"sessionID":"ses_root","status":{"type":"busy"}}}`},
		{"session.error", `{"type":"session.error","properties":{"sessionID":"ses_root","error":{"name":"APIError","data":{"message":"Overloaded"}}}}`},
		{"session.idle", `{"type":"session.idle","properties":{"sessionID":"ses_root","ended":"APIError"}}`},
		{"chat.message", `{"type":"chat.message","properties":{"sessionID":"ses_root"}}`},
		{"session.status", `{"type":"session.status","properties":{"sessionID":"ses_root","status":{"type":"busy"}}}`},
		{"session.idle", `{"type":"session.idle","properties":{"sessionID":"ses_root"}}`},
	}
	got := runsOf(t, handler)
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			t.Errorf("run %d: none, want %s %s", i, want[i].event, want[i].payload)
		case i >= len(want):
			t.Errorf("run %d: %s %s, want none", i, got[i].Event, got[i].Payload)
		case got[i].Event != want[i].event || got[i].Payload != want[i].payload:
			t.Errorf("run %d: %s %s\nwant  %s %s", i, got[i].Event, got[i].Payload, want[i].event, want[i].payload)
		}
	}
}

// The recorded logs of the real OpenCode, fed to the plugin, make the
// signals of their situations (hooks/spool's test reads the same logs).
func TestPlugin_RecordedEvents(t *testing.T) {
	for file, want := range map[string]string{
		"first-turn.jsonl":               "prompt_submitted tool_started stop",
		"interrupted.jsonl":              "prompt_submitted tool_started interrupted none",
		"api-error-429.jsonl":            "prompt_submitted tool_started turn_failed none",
		"permission-bash.jsonl":          "prompt_submitted tool_started permission_prompt",
		"permission-bash-approved.jsonl": "tool_finished tool_started stop",
		"permission-esc.jsonl":           "interrupted none",
		"init.jsonl":                     "prompt_submitted tool_started permission_prompt tool_finished tool_started stop",
	} {
		t.Run(strings.TrimSuffix(file, ".jsonl"), func(t *testing.T) {
			handler := newHandler(t)
			if out := runPlugin(t, handler, recorded(t, file)); out != "" {
				t.Errorf("node printed %q", out)
			}
			var kinds []string
			for _, r := range runsOf(t, handler) {
				m, err := spool.ParsePayloadAs([]byte(r.Payload), r.Event)
				if err != nil {
					t.Fatalf("%s %s: %v", r.Event, r.Payload, err)
				}
				if k := m.Kind().String(); len(kinds) == 0 || kinds[len(kinds)-1] != k {
					kinds = append(kinds, k)
				}
			}
			if got := strings.Join(kinds, " "); got != want {
				t.Errorf("kinds\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// recorded reads a plugin event log as the driver's rows.
func recorded(t *testing.T, file string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "plugin-events", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Kind, Type, Name string
			Properties       map[string]any
			Input, Output    any
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		switch r.Kind {
		case "event":
			rows = append(rows, ev(r.Type, r.Properties))
		case "hook":
			rows = append(rows, map[string]any{"hook": r.Name, "input": r.Input, "output": r.Output})
		}
	}
	return rows
}

// A handler that is missing, fails or is not a program throws nothing
// into OpenCode and prints nothing.
func TestPlugin_FailingHandler(t *testing.T) {
	dir := t.TempDir()
	failing := filepath.Join(dir, "fails", "codeman-hook")
	writeFile(t, failing, "#!/bin/sh\necho noise; echo noise >&2; exit 1\n")
	if err := os.Chmod(failing, 0o755); err != nil {
		t.Fatal(err)
	}
	notProgram := filepath.Join(dir, "plain", "codeman-hook")
	writeFile(t, notProgram, "not a program\n")
	rows := recorded(t, "interrupted.jsonl")
	rows = append(rows, ev("session.idle", nil), hook("chat.message", nil, nil), hook("tool.execute.before", nil, nil), map[string]any{"event": nil})
	for _, handler := range []string{filepath.Join(dir, "missing", "codeman-hook"), failing, notProgram} {
		if out := runPlugin(t, handler, rows); out != "" {
			t.Errorf("%s: node printed %q", handler, out)
		}
	}
}
