package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// Decisions shown by default: one for status, more for explain.
const (
	statusDecisions  = 1
	explainDecisions = 30
)

// routes is the API: HTTP+JSON on the private unix socket.
func (d *Daemon) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/health", d.handleHealth)
	mux.HandleFunc("GET /v1/panes", d.afterAdoption(d.handlePanes))
	mux.HandleFunc("POST /v1/panes", d.afterAdoption(d.handleAttach))
	mux.HandleFunc("DELETE /v1/panes", d.afterAdoption(d.handleDetach))
	mux.HandleFunc("POST /v1/panes/toggle", d.afterAdoption(d.handleToggle))
	mux.HandleFunc("POST /v1/panes/pause", d.afterAdoption(d.handlePause))
	mux.HandleFunc("POST /v1/panes/answer", d.afterAdoption(d.handleAnswer))
	mux.HandleFunc("GET /v1/events", d.afterAdoption(d.handleEvents))
	mux.HandleFunc("GET /v1/record", d.afterAdoption(d.handleRecord))
	return d.withinDeadline(mux)
}

// withinDeadline runs a request within the deadline its client sent
// (DeadlineHeader), and refuses one whose deadline has passed by the time
// the daemon gets to it: a daemon stopped with kill -STOP reads the
// requests queued on its socket only once continued, and a pause its
// client was told had failed must not happen then.
func (d *Daemon) withinDeadline(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get(api.DeadlineHeader)
		if v == "" {
			h.ServeHTTP(w, r)
			return
		}
		deadline, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Errorf("header %s: %q is not a time in RFC 3339 such as %s", api.DeadlineHeader, v, deadlineExample))
			return
		}
		left := deadline.Sub(d.opts.Clock.Now())
		if left <= 0 {
			d.log.Warn("request refused: its client stopped waiting before the daemon got to it",
				"method", r.Method, "path", r.URL.Path, "late", -left)
			writeError(w, http.StatusRequestTimeout, fmt.Errorf("%s %s: the daemon got to the request %s after its deadline, when its client no longer waited; nothing was done",
				r.Method, r.URL.Path, (-left).Round(time.Millisecond)))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), left)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// deadlineExample is a DeadlineHeader value, for the error of a bad one.
const deadlineExample = "2026-11-29T18:00:00.5Z"

// afterAdoption holds a request until the daemon has adopted the panes
// enabled before it started, so a status right after a restart lists them
// and an attach does not race the adoption of the same pane. Health answers
// at once: it is how a client knows the daemon is up. A request whose
// deadline comes first is answered with an error; one whose client went
// away is not answered.
func (d *Daemon) afterAdoption(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-d.adopted:
		case <-r.Context().Done():
		}
		switch r.Context().Err() {
		case nil:
			h(w, r)
		case context.DeadlineExceeded:
			writeError(w, http.StatusServiceUnavailable, errors.New("the daemon is still adopting the panes enabled before it started; try again in a moment"))
		}
	}
}

func (d *Daemon) handleHealth(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	n, failed := len(d.panes), len(d.failed)
	d.mu.Unlock()
	writeJSON(w, http.StatusOK, api.Health{
		PID: os.Getpid(), Version: d.opts.Version, Socket: d.opts.Paths.Socket, Owner: d.me.String(),
		Panes: n, Controllers: int(d.controllers.Load()), NotAdopted: failed, Notify: d.notes.status(),
		History: d.historyStatus(),
	})
}

// handlePanes lists every pane, or one with ?pane=ADDR (and ?decisions=N).
func (d *Daemon) handlePanes(w http.ResponseWriter, r *http.Request) {
	n := statusDecisions
	if s := r.URL.Query().Get("decisions"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > 1000 {
			writeError(w, http.StatusBadRequest, errors.New("decisions must be a number from 0 to 1000"))
			return
		}
		n = v
	}
	addr := r.URL.Query().Get("pane")
	if addr == "" {
		writeJSON(w, http.StatusOK, d.Panes(n))
		return
	}
	st, err := d.Pane(addr, n)
	if err != nil {
		writeError(w, errorCode(err), err)
		return
	}
	if r.URL.Query().Get("screen") == "now" && st.Problem == "" {
		st.Live = d.liveScreen(r.Context(), st.Pane)
	}
	writeJSON(w, http.StatusOK, st)
}

func (d *Daemon) handleAttach(w http.ResponseWriter, r *http.Request) {
	var req api.AttachRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	st, err := d.Attach(r.Context(), req)
	if err != nil {
		writeError(w, errorCode(err), err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (d *Daemon) handleToggle(w http.ResponseWriter, r *http.Request) {
	var req api.AttachRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	res, err := d.Toggle(r.Context(), req)
	if err != nil {
		writeError(w, errorCode(err), err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (d *Daemon) handlePause(w http.ResponseWriter, r *http.Request) {
	// PauseRequest with paused optional: a request that leaves it out must
	// not be taken for a resume.
	var req struct {
		Pane   string `json:"pane"`
		Paused *bool  `json:"paused"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if req.Paused == nil {
		writeError(w, http.StatusBadRequest, errors.New(`pause request: the field "paused" is missing: true pauses the pane, false resumes it`))
		return
	}
	st, err := d.Pause(r.Context(), req.Pane, *req.Paused)
	if err != nil {
		writeError(w, errorCode(err), err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (d *Daemon) handleAnswer(w http.ResponseWriter, r *http.Request) {
	var req api.AnswerRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if req.Choice == "" {
		writeError(w, http.StatusBadRequest, errors.New(`answer request: the field "choice" is missing: an option's number or label`))
		return
	}
	got, err := d.Answer(r.Context(), req.Pane, respawn.Answer{Need: req.Need, Choice: req.Choice, From: req.From})
	if err != nil {
		writeError(w, errorCode(err), err)
		return
	}
	writeJSON(w, http.StatusOK, got)
}

// errorCode is the HTTP status of an error, which the client turns back
// into the error a caller can test for (Client.do).
func errorCode(err error) int {
	switch {
	case errors.Is(err, api.ErrNotControlled):
		return http.StatusNotFound
	case errors.Is(err, api.ErrNotOwner):
		return http.StatusConflict
	}
	return http.StatusUnprocessableEntity
}

func (d *Daemon) handleDetach(w http.ResponseWriter, r *http.Request) {
	addr := r.URL.Query().Get("pane")
	if err := d.Detach(r.Context(), addr, "detached by request"); err != nil {
		writeError(w, errorCode(err), err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleEvents streams events as JSON lines until the client goes away.
func (d *Daemon) handleEvents(w http.ResponseWriter, r *http.Request) {
	events, cancel := d.hub.subscribe(r.URL.Query().Get("pane"))
	defer cancel()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	enc := json.NewEncoder(w)
	for {
		select {
		case <-r.Context().Done():
			return
		case e := <-events:
			if err := enc.Encode(e); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}

// handleRecord streams a pane's recording as JSON lines until the client
// goes away (Record).
func (d *Daemon) handleRecord(w http.ResponseWriter, r *http.Request) {
	flusher, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	started := false
	err := d.Record(r.Context(), r.URL.Query().Get("pane"), func(ev api.RecordEvent) error {
		if !started {
			w.Header().Set("Content-Type", "application/x-ndjson")
			w.WriteHeader(http.StatusOK)
			started = true
		}
		if err := enc.Encode(ev); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		return nil
	})
	if err != nil && !started {
		writeError(w, errorCode(err), err)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, api.ErrorBody{Error: err.Error()})
}
