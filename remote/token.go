package remote

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Claims are what a token says: answer need Need of pane Pane with
// Choice, before Expires. Nonce tells two tokens of the same button
// apart, so that each is used once.
type Claims struct {
	Pane    string `json:"p"`
	Need    string `json:"n"`
	Choice  string `json:"c"`
	Expires int64  `json:"e"` // Unix seconds
	Nonce   string `json:"i"`
}

// Test is the Pane of a test token (codeman notify test): it answers
// nothing and proves the reply topic comes back.
const Test = "test"

// Token errors. A refused token names which.
var (
	ErrMalformed = errors.New("not a codeman answer token")
	ErrForged    = errors.New("the token's signature does not verify: not made with this machine's key")
	ErrExpired   = errors.New("the token has expired")
)

// maxToken bounds a token read from a topic.
const maxToken = 2048

// Sign makes a token of c under key, giving it a fresh nonce.
func Sign(key []byte, c Claims) (string, error) {
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	c.Nonce = hex.EncodeToString(nonce)
	payload, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	p := base64.RawURLEncoding.EncodeToString(payload)
	return p + "." + base64.RawURLEncoding.EncodeToString(mac(key, p)), nil
}

// Verify checks a token under key at now and returns its claims.
func Verify(key []byte, token string, now time.Time) (Claims, error) {
	token = strings.TrimSpace(token)
	p, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > maxToken {
		return Claims{}, ErrMalformed
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return Claims{}, ErrMalformed
	}
	if !hmac.Equal(got, mac(key, p)) {
		return Claims{}, ErrForged
	}
	payload, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return Claims{}, ErrMalformed
	}
	var c Claims
	if err := json.Unmarshal(payload, &c); err != nil || c.Nonce == "" || c.Pane == "" || c.Choice == "" {
		return Claims{}, ErrMalformed
	}
	if !now.Before(time.Unix(c.Expires, 0)) {
		return c, ErrExpired
	}
	return c, nil
}

func mac(key []byte, payload string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("codeman answer v1\x00"))
	h.Write([]byte(payload))
	return h.Sum(nil)
}
