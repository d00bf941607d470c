package codexhooks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Codex runs a hook from the user's own config only once it is trusted:
// config.toml holds, per handler, [hooks.state."<key>"] trusted_hash =
// "sha256:<hex>", and a handler whose hash differs waits for review in
// the "Hooks need review" dialog (docs/codex.md, "Hooks"). Install writes
// that state for codeman's handlers, as the dialog's "Trust all" would.

// StateKey is the key of a handler's state: the hooks file's absolute
// path, the event's snake_case label, the index of the matcher group in
// the event's list and of the handler in the group.
func StateKey(hooksFile, event string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksFile, EventLabel(event), group, handler)
}

// Hash is the trusted_hash of a command handler: the SHA-256 of the
// canonical JSON (keys sorted, no spaces) of its normalized identity,
// {"event_name": <label>, "hooks": [<the handler with type, command,
// timeout and async>]}, with "matcher" when the group has one (matcher
// ""). timeout is in seconds after Codex's defaults and clamping.
func Hash(event, matcher, command string, timeout int) (string, error) {
	identity := map[string]any{
		"event_name": EventLabel(event),
		"hooks": []any{map[string]any{
			"type": "command", "command": command, "timeout": timeout, "async": false,
		}},
	}
	if matcher != "" {
		identity["matcher"] = matcher
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// Codex serializes with serde_json, which leaves <, > and & alone.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(identity); err != nil { // map keys come out sorted
		return "", fmt.Errorf("hash %s hook: %w", event, err)
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// upperStart finds the word boundaries of an event name.
var upperStart = regexp.MustCompile(`[A-Z][a-z]*`)

// EventLabel turns an event name into the label of its state keys and
// hashes: PreToolUse -> pre_tool_use.
func EventLabel(event string) string {
	words := upperStart.FindAllString(event, -1)
	return strings.ToLower(strings.Join(words, "_"))
}

// Codex's timeouts in seconds: the default, and for the events whose
// timeout it clamps (SessionEnd, Interrupt) their default and ceiling.
const (
	defaultTimeout  = 600
	shortTimeout    = 1
	maxShortTimeout = 3
)

// effectiveTimeout is a handler's timeout as Codex hashes it: the one
// written (nil: the event's default), clamped for the short events.
func effectiveTimeout(event string, written *int) int {
	short := event == "SessionEnd" || event == "Interrupt"
	switch {
	case written == nil && short:
		return shortTimeout
	case written == nil:
		return defaultTimeout
	case short:
		return min(*written, maxShortTimeout)
	}
	return *written
}
