package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ErrUsed is a token that was taken before.
var ErrUsed = errors.New("the token was used already")

// Used keeps the nonces of the tokens taken, each until its token
// expires, in a file, so that no token is taken twice, across restarts
// too. A nonce is written down before its answer is typed: a daemon that
// dies in between loses an answer rather than types it twice.
type Used struct {
	path string
	mu   sync.Mutex
}

// NewUsed keeps the nonces in the file at path.
func NewUsed(path string) *Used { return &Used{path: path} }

// Take records c's nonce as used at now, or returns ErrUsed when it was.
func (u *Used) Take(c Claims, now time.Time) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	seen, err := u.read()
	if err != nil {
		return err
	}
	if _, ok := seen[c.Nonce]; ok {
		return ErrUsed
	}
	for n, exp := range seen {
		if !now.Before(time.Unix(exp, 0)) {
			delete(seen, n)
		}
	}
	seen[c.Nonce] = c.Expires
	return u.write(seen)
}

func (u *Used) read() (map[string]int64, error) {
	seen := map[string]int64{}
	data, err := os.ReadFile(u.path)
	if errors.Is(err, fs.ErrNotExist) {
		return seen, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the used answer tokens: %w", err)
	}
	if err := json.Unmarshal(data, &seen); err != nil {
		return nil, fmt.Errorf("read the used answer tokens %s: %w; remove it to start again (tokens sent before then could be taken once more)", u.path, err)
	}
	return seen, nil
}

func (u *Used) write(seen map[string]int64) error {
	data, err := json.Marshal(seen)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(u.path), 0o700); err != nil {
		return fmt.Errorf("write the used answer tokens: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(u.path), ".answers-used-*")
	if err != nil {
		return fmt.Errorf("write the used answer tokens: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), u.path)
	}
	if err != nil {
		return fmt.Errorf("write the used answer tokens %s: %w", u.path, err)
	}
	return nil
}
