package replay

import (
	"os"
	"path/filepath"
	"strings"
)

// Timeline is what Run returns: the controller's states, sends and
// decisions in the order they happened, stamped in seconds of the
// recording.
type Timeline []Entry

// Sends returns the entries that typed text or pressed a key.
func (tl Timeline) Sends() []Entry {
	var out []Entry
	for _, e := range tl {
		if e.Event == "send" {
			out = append(out, e)
		}
	}
	return out
}

// Find returns the first entry whose reason holds substr.
func (tl Timeline) Find(substr string) (Entry, bool) {
	for _, e := range tl {
		if strings.Contains(e.Reason, substr) {
			return e, true
		}
	}
	return Entry{}, false
}

// String renders the timeline one entry a line, as `codeman replay`
// prints it.
func (tl Timeline) String() string {
	var b strings.Builder
	for _, e := range tl {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

// ReadFile reads the recording at path, named by its base name.
func ReadFile(path string) (*Cast, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, filepath.Base(path))
}
