package fakeserver

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// Request is what a server keeps of one request it answered, whatever the
// wire format. A format's request type embeds it and adds how a request
// carries tool results.
type Request struct {
	At     time.Time
	Method string
	Path   string // without the query
	Model  string
	// LastUserText is the last text of the last user message: what was
	// typed, or the prompt the CLI built for it (/init and the like).
	LastUserText string
	Tools        []string // names of the tools offered
	Stream       bool
	Title        bool // the title side request
	// Retry is set when the request repeats one that got an error: the CLI
	// retrying it.
	Retry  bool
	Status int // the HTTP status answered
	Header http.Header
	Body   []byte
}

// Entry is a format's request type: a struct that embeds Request, which
// nothing else can satisfy.
type Entry interface{ common() Request }

// common returns the shared part of a format's request.
func (r Request) common() Request { return r }

// HasTool reports whether the request offered the named tool.
func (r Request) HasTool(name string) bool { return slices.Contains(r.Tools, name) }

// NewRequest starts the log entry of r, answered with status unless the
// handler changes it.
func (b Backend[Req, Rep]) NewRequest(r *http.Request, body []byte, status int) Request {
	return Request{
		At:     b.s.Clock.Now(),
		Method: r.Method,
		Path:   r.URL.Path,
		Status: status,
		Header: r.Header.Clone(),
		Body:   body,
	}
}

// MaxBody caps a request body. A CLI's first request is some 50 to 60 KB;
// a long session grows to a few MB.
const MaxBody = 64 << 20

// ReadBody reads r's body, up to MaxBody bytes. On an error it returns what
// it read.
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		return body, fmt.Errorf("read request body: %w", err)
	}
	return body, nil
}
