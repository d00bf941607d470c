package clitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteFiles writes files under dir, by slash-separated path relative to
// it (the project files of Options.Files).
func WriteFiles(dir string, files map[string]string) error {
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if !strings.HasPrefix(path, dir+string(filepath.Separator)) {
			return fmt.Errorf("write project file %q: outside the project dir", name)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("write project file %q: %w", name, err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return fmt.Errorf("write project file %q: %w", name, err)
		}
	}
	return nil
}

// WriteJSON writes v as indented JSON, creating the parent dir.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return WriteFile(path, append(data, '\n'))
}

// WriteFile writes a private file, creating the parent dir.
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Merge returns base with over laid on top, as a CLI's config seed and a
// test's additions combine: maps merge key by key, lists append (so extra
// hook entries join the recorder's), anything else in over replaces
// base's. Neither argument is modified.
func Merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		switch ov := v.(type) {
		case map[string]any:
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = Merge(bv, ov)
				continue
			}
		case []any:
			if bv, ok := out[k].([]any); ok {
				out[k] = append(append([]any(nil), bv...), ov...)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// ShellQuote quotes s for sh as one word.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// deadProxy is a loopback port nothing listens on.
const deadProxy = "http://127.0.0.1:9"

// NoProxyEnv points every proxy variable, in both cases, at a loopback
// port nothing listens on, except for loopback itself: a CLI under test
// that tries to reach the network fails at once, and its fake API on
// loopback still answers.
func NoProxyEnv() []string {
	return []string{
		"HTTP_PROXY=" + deadProxy, "HTTPS_PROXY=" + deadProxy, "ALL_PROXY=" + deadProxy,
		"http_proxy=" + deadProxy, "https_proxy=" + deadProxy, "all_proxy=" + deadProxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
}
