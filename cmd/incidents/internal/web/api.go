package web

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strings"
	"time"

	"incidents/analysis"
	"incidents/cmd/incidents/internal/engine"
	"incidents/data/console"
	"incidents/data/incident"
)

// Status describes the snapshot being served.
type Status struct {
	Cases      int       `json:"cases"`
	Snapshot   int64     `json:"snapshot"`
	Generation int64     `json:"generation"`
	LoadedAt   time.Time `json:"loaded_at"`
	LoadMs     int64     `json:"load_ms"`
	ReadMs     int64     `json:"read_ms"`
	Database   string    `json:"database"`
}

func (s *Server) apiStatus(w http.ResponseWriter, r *http.Request) {
	snap := s.e.Snapshot()
	st := Status{Cases: len(snap.Cases), Snapshot: snap.Gen, LoadedAt: snap.LoadedAt, LoadMs: snap.LoadTime.Milliseconds(), ReadMs: snap.ReadTime.Milliseconds(), Database: s.e.Path()}
	if snap.Links != nil {
		st.Generation = snap.Links.Gen
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) apiCases(w http.ResponseWriter, r *http.Request) {
	f, err := filterOf(r)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.e.Snapshot().List(f))
}

func (s *Server) apiSearch(w http.ResponseWriter, r *http.Request) {
	f, err := filterOf(r)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if f.Q == "" {
		writeError(w, http.StatusBadRequest, "parameter q is missing", "e.g. /api/search?q=expired+certificate")
		return
	}
	writeJSON(w, http.StatusOK, s.e.Snapshot().List(f))
}

// APIBacklinks is the number of cases listing a case as related that
// /api/cases/{id} returns by default (the strongest; related_from_total
// counts them all); from_limit=N changes it, from_limit=0 returns all.
const APIBacklinks = 100

func (s *Server) apiCase(w http.ResponseWriter, r *http.Request) {
	maxFrom := APIBacklinks
	if v := r.URL.Query().Get("from_limit"); v != "" {
		n, err := intParam(r, "from_limit")
		if err != nil {
			s.apiFail(w, r, err)
			return
		}
		maxFrom = n // 0: all
	}
	d, err := s.e.Snapshot().Detail(r.PathValue("id"), maxFrom)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// SimilarResponse is the answer of /api/cases/{id}/similar.
type SimilarResponse struct {
	ID       string            `json:"id"`
	K        int               `json:"k"`
	Similar  []engine.LinkView `json:"similar"`
	Snapshot int64             `json:"snapshot"`
}

func (s *Server) apiSimilar(w http.ResponseWriter, r *http.Request) {
	k, err := intParam(r, "k")
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if k == 0 {
		k = 10
	}
	snap := s.e.Snapshot()
	id := r.PathValue("id")
	l, err := snap.Similar(id, k)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	resp := SimilarResponse{ID: id, K: min(k, engine.MaxK), Similar: l, Snapshot: snap.Gen}
	b := getBuf()
	defer putBuf(b)
	if !appendSimilar(b, &resp) {
		writeJSON(w, http.StatusOK, resp) // encoding/json reports the value it refuses
		return
	}
	writeJSONBytes(w, http.StatusOK, b.Bytes())
}

func (s *Server) apiVocab(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.e.Snapshot().Vocabulary())
}

func (s *Server) apiTopic(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r, "limit")
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if limit == 0 {
		limit = engine.DefaultLimit
	}
	tp, err := s.e.Snapshot().Topic(incident.Facet(r.PathValue("facet")), r.PathValue("term"), min(limit, engine.MaxLimit))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, tp)
}

func (s *Server) apiStats(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	aq := analysis.Query{By: q.Get("by"), Metric: q.Get("metric"), Since: q.Get("since"), Until: q.Get("until"), Org: q.Get("org"), Quarter: q.Get("quarter")}
	if aq.By == "" {
		aq.By = "root_cause_class"
	}
	if aq.By == "none" {
		aq.By = ""
	}
	var err error
	if aq.Year, err = intParam(r, "year"); err != nil {
		s.apiFail(w, r, err)
		return
	}
	t, err := s.e.Stats(r.Context(), aq)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

// SQLRequest is the body of POST /api/sql (Content-Type application/json).
type SQLRequest struct {
	SQL string `json:"sql"`
	// MaxRows (default 1000, at most 10000) and TimeoutMs (default 5000,
	// at most 30000) limit the answer; its rows are also cut at
	// console.MaxResultBytes.
	MaxRows   int `json:"max_rows,omitempty"`
	TimeoutMs int `json:"timeout_ms,omitempty"`
}

func (s *Server) apiSQL(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		// A form post is what a foreign page can make a browser send.
		writeError(w, http.StatusUnsupportedMediaType, "POST /api/sql takes a JSON body with Content-Type: application/json",
			`e.g. curl -H 'Content-Type: application/json' -d '{"sql": "SELECT count(*) FROM incidents"}'`)
		return
	}
	var req SQLRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			s.apiFail(w, r, mb)
			return
		}
		writeError(w, http.StatusBadRequest, "body is not a JSON object {\"sql\": ...}: "+err.Error(), `e.g. {"sql": "SELECT count(*) FROM incidents"}`)
		return
	}
	if strings.TrimSpace(req.SQL) == "" {
		writeError(w, http.StatusBadRequest, "no SQL statement given", `POST {"sql": "SELECT count(*) FROM incidents"}`)
		return
	}
	res, err := s.e.SQL(r.Context(), req.SQL, console.Limits{Rows: req.MaxRows, Timeout: time.Duration(req.TimeoutMs) * time.Millisecond})
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
