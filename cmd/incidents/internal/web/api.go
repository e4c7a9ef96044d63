package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	if _, err := epStatus.read(r, true); err != nil {
		s.apiFail(w, r, err)
		return
	}
	snap := s.e.Snapshot()
	st := Status{Cases: len(snap.Cases), Snapshot: snap.Gen, LoadedAt: snap.LoadedAt, LoadMs: snap.LoadTime.Milliseconds(), ReadMs: snap.ReadTime.Milliseconds(), Database: s.e.Path()}
	if snap.Links != nil {
		st.Generation = snap.Links.Gen
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) apiCases(w http.ResponseWriter, r *http.Request) {
	v, err := epCases.read(r, true)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.e.Snapshot().List(v.filter()))
}

func (s *Server) apiSearch(w http.ResponseWriter, r *http.Request) {
	v, err := epSearch.read(r, true)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	f := v.filter()
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
	v, err := epCase.read(r, true)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	maxFrom := APIBacklinks
	if v.get("from_limit") != "" {
		maxFrom = v.count("from_limit") // 0: all
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
	v, err := epSimilar.read(r, true)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	k := v.count("k")
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
	if _, err := epVocab.read(r, true); err != nil {
		s.apiFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.e.Snapshot().Vocabulary())
}

func (s *Server) apiTopic(w http.ResponseWriter, r *http.Request) {
	v, err := epTopic.read(r, true)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	limit := v.count("limit")
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
	v, err := epStats.read(r, true)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	aq := analysis.Query{By: v.get("by"), Metric: v.get("metric"), Since: v.get("since"), Until: v.get("until"), Org: v.get("org"),
		Quarter: v.get("quarter"), Year: v.count("year")}
	if aq.By == "" {
		aq.By = analysis.RootCauseClass
	}
	if aq.By == "none" {
		aq.By = ""
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
	if _, err := epSQL.read(r, true); err != nil {
		s.apiFail(w, r, err)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		// A form post is what a foreign page can make a browser send.
		writeError(w, http.StatusUnsupportedMediaType, "POST /api/sql takes a JSON body with Content-Type: application/json",
			`e.g. curl -H 'Content-Type: application/json' -d '{"sql": "SELECT count(*) FROM incidents"}'`)
		return
	}
	var req SQLRequest
	body, err := io.ReadAll(r.Body) // at most MaxBodyBytes (the server's MaxBytesReader)
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		s.apiFail(w, r, mb)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		if errors.As(err, &mb) {
			s.apiFail(w, r, mb)
			return
		}
		writeError(w, http.StatusBadRequest, "body is not a JSON object {\"sql\": ...}: "+bodyProblem(err), `e.g. {"sql": "SELECT count(*) FROM incidents", "max_rows": 100}`)
		return
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		// {"sql": "SELECT 1"} {"sql": "..."}: only the first would run.
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			s.apiFail(w, r, mb)
			return
		}
		writeError(w, http.StatusBadRequest, "body holds more after its JSON object; send one object {\"sql\": ...}",
			"send one statement per request")
		return
	}
	if field, _, twice := incident.DuplicateName(body); twice {
		// {"sql": "SELECT 1", "SQL": "…"}: encoding/json would run the last
		// one without a word.
		writeError(w, http.StatusBadRequest, fmt.Sprintf("body gives %q twice; only one value could be used", field),
			"send each field once (names differing only in case are one field)")
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

// bodyProblem says what is wrong with a JSON body in its writer's words,
// never in Go types.
func bodyProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		je := incident.JSONTypeError(te)
		return fmt.Sprintf("field %q %s", je.Field, je.Msg)
	}
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return "the body is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the body ends inside its JSON object"
	case errors.As(err, &se):
		return fmt.Sprintf("not JSON at byte %d (%s)", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
