package codexhooks

import (
	"encoding/json"
	"strconv"
	"strings"
)

// fileHashes reads a hooks.json and returns, per state key, the trusted
// hash of the command handler there as Codex would compute it: what a
// trust entry must hold for that handler to run. Handlers that are not
// plain commands (another type, async) have none. data must be valid JSON
// (hooks.Install and hooks.Status check it).
func fileHashes(hooksFile string, data []byte) map[string]string {
	var doc struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	out := map[string]string{}
	if json.Unmarshal(data, &doc) != nil {
		return out
	}
	for event, raw := range doc.Hooks {
		var groups []json.RawMessage
		if json.Unmarshal(raw, &groups) != nil {
			continue
		}
		for g, graw := range groups {
			var group struct {
				Matcher *string           `json:"matcher"`
				Hooks   []json.RawMessage `json:"hooks"`
			}
			if json.Unmarshal(graw, &group) != nil {
				continue
			}
			matcher := ""
			if group.Matcher != nil {
				matcher = *group.Matcher
			}
			for h, hraw := range group.Hooks {
				var handler struct {
					Type    string `json:"type"`
					Command string `json:"command"`
					Timeout *int   `json:"timeout"`
					Async   bool   `json:"async"`
				}
				if json.Unmarshal(hraw, &handler) != nil || handler.Type != "command" || handler.Async {
					continue
				}
				hash, err := Hash(event, matcher, handler.Command, effectiveTimeout(event, handler.Timeout))
				if err == nil {
					out[StateKey(hooksFile, event, g, h)] = hash
				}
			}
		}
	}
	return out
}

// isKeyOf reports whether key is a state key of a handler in hooksFile.
func isKeyOf(hooksFile, key string) bool {
	rest, ok := strings.CutPrefix(key, hooksFile+":")
	if !ok {
		return false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 || parts[0] == "" {
		return false
	}
	for _, n := range parts[1:] {
		if _, err := strconv.Atoi(n); err != nil {
			return false
		}
	}
	return true
}
