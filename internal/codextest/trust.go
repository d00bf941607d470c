package codextest

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
// config.toml holds, per hook, [hooks.state."<key>"] trusted_hash =
// "sha256:<hex>", and a hook whose hash differs waits for review in the
// "Hooks need review" dialog (docs/codex.md). The session writes that state
// itself, as the dialog's "Trust all" would.

// hookStateKey is the key of a hook's state: the hooks file, the event's
// snake_case label, the index of the matcher group in the event's list and
// of the handler in the group.
func hookStateKey(hooksFile, event string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksFile, eventLabel(event), group, handler)
}

// hookHash is the trusted_hash of a command hook without a matcher: the
// SHA-256 of the canonical JSON (keys sorted, no spaces) of the hook's
// normalized identity, {"event_name": <label>, "hooks": [<the handler with
// type, command, timeout and async>]}.
func hookHash(event, command string, timeoutSec int) (string, error) {
	identity := map[string]any{
		"event_name": eventLabel(event),
		"hooks": []any{map[string]any{
			"type": "command", "command": command, "timeout": timeoutSec, "async": false,
		}},
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

// eventLabel turns an event name into its label: PreToolUse ->
// pre_tool_use.
func eventLabel(event string) string {
	words := upperStart.FindAllString(event, -1)
	return strings.ToLower(strings.Join(words, "_"))
}
