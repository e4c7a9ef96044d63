package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"incidents/cmd/incidents/internal/engine"
	"incidents/data/console"
	"incidents/data/incident"
)

//go:embed templates static
var files embed.FS

// Limits of the HTTP server.
const (
	// MaxBodyBytes bounds every request body (SQL forms and API posts).
	MaxBodyBytes = 256 << 10
	// MaxHeaderBytes bounds the request headers.
	MaxHeaderBytes = 64 << 10
	// ReadHeaderTimeout and the other timeouts of NewHTTPServer.
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 90 * time.Second
	IdleTimeout       = 120 * time.Second
)

// Options configure a Server.
type Options struct {
	Engine *engine.Engine
	// MCP, when not nil, is mounted at /mcp (streamable HTTP).
	MCP http.Handler
	// Logf receives one line per failed request (nil: quiet).
	Logf func(format string, args ...any)
	// PageCacheBytes bounds the rendered case pages kept per snapshot
	// (0: DefaultPageCacheBytes; negative: no cache).
	PageCacheBytes int
	// CaseBacklinks is the number of cases listing a case as related that
	// its page shows, the strongest first (0: DefaultCaseBacklinks).
	CaseBacklinks int
	// AllowHosts are host names (or host:port) the server answers to
	// besides the address it listens on (see guard.go).
	AllowHosts []string
}

// Server is the HTTP handler of 'incidents serve'.
type Server struct {
	e     *engine.Engine
	mux   *http.ServeMux
	pages *pages
	cache *pageCache
	logf  func(format string, args ...any)
	// backlinks is Options.CaseBacklinks.
	backlinks int
	// frame is the case page layout of the newest snapshot (see frame.go).
	frame atomic.Pointer[frame]
	guard *guard
}

// New builds the handler and its routes.
func New(opt Options) (*Server, error) {
	if opt.Engine == nil {
		return nil, errors.New("web: no engine")
	}
	p, err := newPages()
	if err != nil {
		return nil, err
	}
	if opt.PageCacheBytes == 0 {
		opt.PageCacheBytes = DefaultPageCacheBytes
	}
	if opt.CaseBacklinks <= 0 {
		opt.CaseBacklinks = DefaultCaseBacklinks
	}
	s := &Server{e: opt.Engine, mux: http.NewServeMux(), pages: p, cache: newPageCache(opt.PageCacheBytes), logf: opt.Logf, backlinks: opt.CaseBacklinks, guard: newGuard(opt.AllowHosts)}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	static, _ := fs.Sub(files, "static")
	m := s.mux
	m.HandleFunc("GET /{$}", s.pageIndex)
	m.HandleFunc("GET /cases/{id}", s.pageCase)
	m.HandleFunc("GET /vocab", s.pageVocab)
	m.HandleFunc("GET /vocab/{facet}/{term...}", s.pageTopic)
	m.HandleFunc("GET /report", s.pageReport)
	m.HandleFunc("GET /sql", s.pageSQL)
	m.HandleFunc("POST /sql", s.pageSQL)
	m.Handle("GET /static/", http.StripPrefix("/static/", s.staticFiles(static)))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.pageError(w, r, http.StatusNotFound, "No page at "+r.URL.Path, "Start from the search page.")
	})

	m.HandleFunc("GET /api/status", s.apiStatus)
	m.HandleFunc("GET /api/cases", s.apiCases)
	m.HandleFunc("GET /api/cases/{id}", s.apiCase)
	m.HandleFunc("GET /api/cases/{id}/similar", s.apiSimilar)
	m.HandleFunc("GET /api/search", s.apiSearch)
	m.HandleFunc("GET /api/vocab", s.apiVocab)
	m.HandleFunc("GET /api/vocab/{facet}/{term...}", s.apiTopic)
	m.HandleFunc("GET /api/stats", s.apiStats)
	m.HandleFunc("POST /api/sql", s.apiSQL)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no API route %s %s", r.Method, r.URL.Path),
			"routes: GET /api/cases, /api/cases/{id}, /api/cases/{id}/similar, /api/search, /api/vocab, /api/stats; POST /api/sql")
	})
	if opt.MCP != nil {
		m.Handle("/mcp", opt.MCP)
	}
	return s, nil
}

// pageCSP is the Content-Security-Policy of every answer but the report
// itself (see reportCSP): no script at all.
const pageCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// ServeHTTP adds the security headers, refuses requests for other hosts or
// from other origins (guard.go), applies the body limit, recovers from
// panics and routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", pageCSP)
	if err := s.guard.check(r); err != nil {
		s.refuse(w, r, err)
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.logf("panic serving %s %s: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// staticFiles serves the embedded assets, files only: a directory is a
// 404 page rather than a listing.
func (s *Server) staticFiles(static fs.FS) http.Handler {
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSuffix(r.URL.Path, "/")
		if fi, err := fs.Stat(static, name); name == "" || err != nil || fi.IsDir() || strings.HasSuffix(r.URL.Path, "/") {
			s.pageError(w, r, http.StatusNotFound, "No file at /static/"+r.URL.Path, "Start from the search page.")
			return
		}
		files.ServeHTTP(w, r)
	})
}

// NewHTTPServer returns an http.Server for h with the package's timeouts
// and header limit.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// IsLoopback reports whether a listen address only accepts local
// connections.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// errorBody is the JSON form of every API error.
type errorBody struct {
	Error string `json:"error"`
	Hint  string `json:"hint,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b := getBuf()
	defer putBuf(b)
	if err := json.NewEncoder(b).Encode(v); err != nil {
		msg, _ := json.Marshal(errorBody{Error: "encoding the answer: " + err.Error()})
		writeJSONBytes(w, http.StatusInternalServerError, append(msg, '\n'))
		return
	}
	writeJSONBytes(w, status, b.Bytes())
}

// writeJSONBytes writes an encoded JSON answer.
func writeJSONBytes(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

func writeError(w http.ResponseWriter, status int, msg, hint string) {
	switch status {
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "2")
	case http.StatusTooManyRequests:
		w.Header().Set("Retry-After", strconv.Itoa(int(console.RetryAfter/time.Second)))
	}
	writeJSON(w, status, errorBody{Error: msg, Hint: hint})
}

// classify maps an error to a status, a message and a hint.
func classify(err error) (int, string, string) {
	var ie *incident.Error
	var se *console.SQLError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &mb):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is over the %d-byte limit", mb.Limit), "send a shorter request"
	case errors.Is(err, engine.ErrBusy):
		return http.StatusServiceUnavailable, err.Error(), "retry in a few seconds"
	case errors.Is(err, console.ErrBusy):
		return http.StatusTooManyRequests, err.Error(), "retry in a second"
	case errors.Is(err, engine.ErrNoSQL):
		return http.StatusNotImplemented, err.Error(), ""
	case errors.As(err, &se):
		if se.Problem == console.TooLarge {
			return http.StatusRequestEntityTooLarge, se.Message(), se.Hint
		}
		return http.StatusBadRequest, se.Message(), se.Hint
	case errors.As(err, &ie):
		status := http.StatusBadRequest
		if ie.Kind == incident.ErrNotFound || ie.Kind == incident.ErrEmpty {
			status = http.StatusNotFound
		}
		hint := ie.Hint
		c := *ie
		c.Hint = ""
		if c.File == "" && strings.Contains(c.Msg, c.Field) {
			c.Field = "" // "parameter since=... is not a date" names it already
		}
		return status, c.Error(), hint
	}
	return http.StatusInternalServerError, err.Error(), ""
}

func (s *Server) apiFail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg, hint := classify(err)
	if status >= 500 {
		s.logf("%s %s: %v", r.Method, r.URL.Path, err)
	}
	writeError(w, status, msg, hint)
}

// badParam is the error of a query parameter that does not parse.
func badParam(name, value, want string) error {
	return &incident.Error{Kind: incident.ErrInvalid, Field: name, Msg: fmt.Sprintf("parameter %s=%q is not %s", name, value, want)}
}
