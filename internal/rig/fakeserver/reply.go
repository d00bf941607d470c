package fakeserver

import (
	"strings"
	"time"
)

// Chunk is one piece of a slow stream.
type Chunk struct {
	Pause time.Duration // wait before this piece
	Text  string
}

// Pieces returns what a reply with text and chunks streams: its chunks,
// else its text as one piece, else nothing.
func Pieces(text string, chunks []Chunk) []Chunk {
	if len(chunks) > 0 {
		return chunks
	}
	if text == "" {
		return nil
	}
	return []Chunk{{Text: text}}
}

// Join returns the whole text of a reply with text and chunks: its chunks'
// texts joined, else text.
func Join(text string, chunks []Chunk) string {
	if len(chunks) == 0 {
		return text
	}
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString(c.Text)
	}
	return b.String()
}

// Tokens is a rough token count for n bytes, at about four bytes a token;
// a CLI only shows it.
func Tokens(n int) int { return n/4 + 1 }
