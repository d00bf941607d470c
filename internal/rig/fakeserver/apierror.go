package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// ErrorKind returns the entry of status in kinds, which must have entries
// for 400 and 500: a status it lacks gets that of 500 when it is a server
// error and that of 400 otherwise.
func ErrorKind[K any](kinds map[int]K, status int) K {
	if k, ok := kinds[status]; ok {
		return k
	}
	if status >= http.StatusInternalServerError {
		return kinds[http.StatusInternalServerError]
	}
	return kinds[http.StatusBadRequest]
}

// WriteJSON answers status with data marshalled to JSON. When data does
// not marshal it writes nothing and returns the error.
func WriteJSON(w http.ResponseWriter, status int, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("marshal answer: %w", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b) // the client may be gone; nothing to do then
	return nil
}
