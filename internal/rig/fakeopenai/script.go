package fakeopenai

import (
	"crypto/sha256"
	"encoding/json"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// answer is a chosen reply plus the call id of its tool call, if any.
type answer = fakeserver.Answer[Reply]

// bodyKey hashes a request body in a canonical form: Codex retries by
// resending the same JSON, but writes its client_metadata map in a new key
// order every time, so the bytes of a retry differ while its JSON does not.
// Go marshals map keys sorted.
func bodyKey(body []byte) [32]byte {
	var v any
	if err := json.Unmarshal(body, &v); err == nil {
		if canon, err := json.Marshal(v); err == nil {
			body = canon
		}
	}
	return sha256.Sum256(body)
}
