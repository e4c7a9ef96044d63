package mcptools

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidents/analysis"
	"incidents/cmd/incidents/internal/engine"
	"incidents/data/console"
	"incidents/data/incident"
	"incidents/data/store"
)

// SearchInput is the input of search_incidents.
type SearchInput struct {
	Query     string `json:"query" jsonschema:"free-text query over titles, summaries and narratives, e.g. expired TLS certificate"`
	RootCause string `json:"root_cause,omitempty" jsonschema:"only cases with this root cause term id (a class such as capacity matches its subclasses)"`
	Symptom   string `json:"symptom,omitempty" jsonschema:"only cases with this symptom term id"`
	Component string `json:"component,omitempty" jsonschema:"only cases with this component term id"`
	Org       string `json:"org,omitempty" jsonschema:"only cases of this organisation (case-insensitive)"`
	Year      int    `json:"year,omitempty" jsonschema:"only cases that began in this year"`
	Limit     int    `json:"limit,omitempty" jsonschema:"number of results (default 10, at most 500)"`
}

// GetInput is the input of get_incident.
type GetInput struct {
	ID string `json:"id" jsonschema:"case id, e.g. cloudflare-2019-07-02"`
	// MaxRelatedFrom bounds related_from: a case can be listed by
	// thousands of others.
	MaxRelatedFrom int `json:"max_related_from,omitempty" jsonschema:"number of cases that list this one as related to return, strongest first (default 20, at most 500); related_from_total counts them all"`
}

// SimilarInput is the input of similar_incidents.
type SimilarInput struct {
	ID string `json:"id" jsonschema:"case id to find similar cases for"`
	K  int    `json:"k,omitempty" jsonschema:"number of similar cases (default 10, at most 100)"`
}

// TopicInput is the input of get_topic.
type TopicInput struct {
	Term  string `json:"term" jsonschema:"vocabulary term id, label or alias, e.g. dns or expired certificate"`
	Facet string `json:"facet,omitempty" jsonschema:"facet of the term: symptom, root_cause, trigger, component, detection or remediation (default: search every facet)"`
	Limit int    `json:"limit,omitempty" jsonschema:"number of cases listed (default 20, at most 500); statistics cover every case"`
}

// VocabInput is the input of vocab.
type VocabInput struct {
	Facet string `json:"facet,omitempty" jsonschema:"only this facet: symptom, root_cause, trigger, component, detection or remediation"`
}

// StatsInput is the input of stats.
type StatsInput struct {
	By      string `json:"by,omitempty" jsonschema:"grouping: root_cause, root_cause_class (default), symptom, component, trigger, detection, remediation, org, quarter, year or none"`
	Metric  string `json:"metric,omitempty" jsonschema:"ttd (time to detect) or ttr (time to resolve, default)"`
	Since   string `json:"since,omitempty" jsonschema:"first date, inclusive: YYYY, YYYY-MM or YYYY-MM-DD"`
	Until   string `json:"until,omitempty" jsonschema:"last date, inclusive: YYYY, YYYY-MM or YYYY-MM-DD"`
	Org     string `json:"org,omitempty" jsonschema:"only this organisation"`
	Quarter string `json:"quarter,omitempty" jsonschema:"only this quarter, e.g. 2024Q3"`
}

// MaxSQLBytes bounds the rows of a query_sql answer: an assistant reads
// them into its context.
const MaxSQLBytes = 1 << 20

// SQLInput is the input of query_sql.
type SQLInput struct {
	SQL     string `json:"sql" jsonschema:"one read-only DuckDB statement over the views incidents, durations, tags, related, sources, action_items, \"references\", vocab, generations, audit"`
	MaxRows int    `json:"max_rows,omitempty" jsonschema:"row limit (default 1000, at most 10000)"`
}

// NewServer returns an MCP server whose tools query e.
func NewServer(e *engine.Engine, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "incidents", Title: "Incident library", Version: version}, &mcp.ServerOptions{
		Instructions: "Tools over a library of public incident postmortems: search and list cases, read one case with its related cases and reasons, " +
			"browse the taxonomy (vocab, get_topic), TTD/TTR statistics with confidence intervals (stats) and read-only SQL (query_sql).",
	})
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}
	mcp.AddTool(s, &mcp.Tool{Name: "search_incidents", Annotations: ro, InputSchema: inputSchema[SearchInput](), OutputSchema: outputSchema[engine.Page](),
		Description: "Free-text search over the incidents, best match first, optionally filtered by root cause, symptom, component, organisation or year. " +
			"Returns {total, offset, limit, cases: [{id, org, title, date, root_cause, ttd, ttr, score, terms}], snapshot, generation}; terms are the matched words."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, engine.Page, error) {
			if strings.TrimSpace(in.Query) == "" {
				return nil, engine.Page{}, incident.Errorf(incident.ErrMissing, "query is empty").WithHint("give words to search for, or use list_incidents")
			}
			if err := engine.LimitCount.Check(in.Limit); err != nil {
				return nil, engine.Page{}, err
			}
			if in.Limit == 0 {
				in.Limit = 10
			}
			return nil, e.Snapshot().List(engine.Filter{Q: in.Query, RootCause: in.RootCause, Symptom: in.Symptom, Component: in.Component, Org: in.Org, Year: in.Year, Limit: in.Limit}), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_incident", Annotations: ro, InputSchema: inputSchema[GetInput](), OutputSchema: outputSchema[engine.CaseDetail](),
		Description: "One incident with every field (timeline, TTD/TTR, narrative, tags with their origin) and its related cases both ways with scores and reasons (event names the real-world event two organisations' reports share). " +
			"Returns {case, related, related_from, related_from_total, snapshot, generation}."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in GetInput) (*mcp.CallToolResult, *engine.CaseDetail, error) {
			n := in.MaxRelatedFrom
			if n <= 0 {
				n = 20
			}
			d, err := e.Snapshot().Detail(in.ID, min(n, 500))
			if err != nil {
				return nil, nil, err
			}
			return nil, d, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_incidents", Annotations: ro, InputSchema: inputSchema[engine.Filter](), OutputSchema: outputSchema[engine.Page](),
		Description: "List incidents newest first, filtered by root cause, symptom, component, trigger, organisation, year or dates (since, until), with paging (limit, offset). " +
			"Returns {total, offset, limit, cases: [{id, org, title, date, root_cause, ttd, ttr}], snapshot, generation}."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in engine.Filter) (*mcp.CallToolResult, engine.Page, error) {
			if err := countsOf(in); err != nil {
				return nil, engine.Page{}, err
			}
			f, err := in.Dated()
			if err != nil {
				return nil, engine.Page{}, err
			}
			return nil, e.Snapshot().List(f), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "similar_incidents", Annotations: ro, InputSchema: inputSchema[SimilarInput](), OutputSchema: outputSchema[SimilarOutput](),
		Description: "The incidents most similar to one case, each with its score, text and tag scores, shared tags and words, and a one-line reason; reports of the same real-world event by other organisations come first and name it in event. " +
			"Returns {id, similar: [{id, rank, score, text_score, tag_score, reason, shared_tags, shared_terms, event, title, org, date}]}."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SimilarInput) (*mcp.CallToolResult, SimilarOutput, error) {
			if err := engine.KCount.Check(in.K); err != nil {
				return nil, SimilarOutput{}, err
			}
			l, err := e.Snapshot().Similar(in.ID, in.K)
			if err != nil {
				return nil, SimilarOutput{}, err
			}
			return nil, SimilarOutput{ID: in.ID, Similar: l}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_topic", Annotations: ro, InputSchema: inputSchema[TopicInput](), OutputSchema: outputSchema[engine.Topic](),
		Description: "A vocabulary term (root cause, symptom, component, ...) with its description, its cases (newest first), their TTD/TTR medians with 90% intervals and the terms most often found with it. " +
			"Returns {term, cases, total, ttd, ttr, co_terms}; ttd and ttr are {n, known, coverage, median, p75, p90, mean, ci_low, ci_high, ci_level, se} in minutes, null when unknown."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in TopicInput) (*mcp.CallToolResult, *engine.Topic, error) {
			if err := engine.TopicLimit.Check(in.Limit); err != nil {
				return nil, nil, err
			}
			if in.Limit == 0 {
				in.Limit = 20
			}
			tp, err := e.Snapshot().Topic(incident.Facet(in.Facet), in.Term, in.Limit)
			if err != nil {
				return nil, nil, err
			}
			if tp.CoTerms == nil {
				tp.CoTerms = []engine.CoTerm{} // a list, never null
			}
			return nil, tp, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "vocab", Annotations: ro, InputSchema: inputSchema[VocabInput](), OutputSchema: outputSchema[VocabOutput](),
		Description: "The controlled vocabulary: every facet and term with its label, description and number of cases. " +
			"Returns {facets: [{facet, label, terms: [{facet, id, label, description, parent, cases}]}]}."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in VocabInput) (*mcp.CallToolResult, VocabOutput, error) {
			all := e.Snapshot().Vocabulary()
			if in.Facet == "" {
				return nil, VocabOutput{Facets: all}, nil
			}
			for _, f := range all {
				if string(f.Facet) == in.Facet {
					return nil, VocabOutput{Facets: []engine.VocabFacet{f}}, nil
				}
			}
			return nil, VocabOutput{}, incident.Errorf(incident.ErrInvalid, "unknown facet %q", in.Facet).WithHint("facets: " + incident.FacetList(""))
		})
	mcp.AddTool(s, &mcp.Tool{Name: "stats", Annotations: ro, InputSchema: inputSchema[StatsInput](), OutputSchema: outputSchema[analysis.Table](),
		Description: "TTD or TTR statistics per group: cases, known figures, median with its 90% interval, p75, p90, mean. Read the median and its interval; unknown durations are never counted as zero. " +
			"Returns {query, cases, rows: [{group, label, n, known, coverage, median, p75, p90, mean, ci_low, ci_high, ci_level, se, share}], overall, multi_group, share_sum, note}; figures in minutes, null when unknown."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in StatsInput) (*mcp.CallToolResult, *analysis.Table, error) {
			q := analysis.Query{By: in.By, Metric: in.Metric, Since: in.Since, Until: in.Until, Org: in.Org, Quarter: in.Quarter}
			if q.By == "" {
				q.By = analysis.RootCauseClass
			}
			if q.By == "none" {
				q.By = ""
			}
			t, err := e.Stats(ctx, q)
			if err != nil {
				return nil, nil, err
			}
			if t.Rows == nil {
				c := *t // t is shared with the cache
				c.Rows = []analysis.Row{}
				t = &c
			}
			return nil, t, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "query_sql", Annotations: ro, InputSchema: inputSchema[SQLInput](), OutputSchema: outputSchema[engine.SQLResult](),
		Description: "Run one read-only DuckDB SQL statement over the public views (" + strings.Join(store.ViewNames(true), ", ") + "). " +
			"At most 10000 rows, 1 MiB of rows and 5 seconds; a cut answer says truncated_at; files, settings and the network are out of reach. " +
			"Returns {columns, rows (arrays of values), truncated, truncated_at, row_limit, byte_limit, elapsed_ms, snapshot}."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SQLInput) (*mcp.CallToolResult, *engine.SQLResult, error) {
			r, err := e.SQL(ctx, in.SQL, console.Limits{Rows: in.MaxRows, Bytes: MaxSQLBytes})
			if err != nil {
				return nil, nil, err
			}
			return nil, r, nil
		})
	return s
}

// countsOf refuses a limit or an offset of list_incidents out of range,
// as the JSON API does (engine.Count), instead of clamping it.
func countsOf(f engine.Filter) error {
	if err := engine.LimitCount.Check(f.Limit); err != nil {
		return err
	}
	return engine.OffsetCount.Check(f.Offset)
}

// HTTPHandler serves s over the streamable HTTP transport. Sessions idle
// for SessionTimeout are closed, and at most MaxSessions are kept: a new
// one beyond that closes the session idle longest (its client starts a new
// one when it comes back). Host and Origin are checked by the web server
// that mounts the handler.
func HTTPHandler(s *mcp.Server) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      SessionTimeout,
		MaxRequestBodyBytes: 1 << 20,
	})
	return &sessionCap{s: s, h: h, max: MaxSessions, seen: map[string]time.Time{}}
}

// Bounds of the MCP HTTP sessions.
const (
	// SessionTimeout closes idle MCP HTTP sessions.
	SessionTimeout = 10 * time.Minute
	// MaxSessions is how many sessions are kept at once.
	MaxSessions = 64
)

// sessionCap keeps the number of sessions of s at most max.
type sessionCap struct {
	s   *mcp.Server
	h   http.Handler
	max int

	mu   sync.Mutex
	seen map[string]time.Time // last request of each session this handler created
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionHeader)
	if id == "" && r.Method == http.MethodPost {
		c.makeRoom()
	}
	c.h.ServeHTTP(w, r)
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if id == "" {
		if created := w.Header().Get(sessionHeader); created != "" {
			c.seen[created] = now
		}
	} else if _, ok := c.seen[id]; ok {
		c.seen[id] = now
	}
}

// sessionHeader carries the session id of the streamable transport.
const sessionHeader = "Mcp-Session-Id"

// makeRoom closes the sessions idle longest until a new one fits.
func (c *sessionCap) makeRoom() {
	live := map[string]*mcp.ServerSession{}
	for ss := range c.s.Sessions() {
		live[ss.ID()] = ss
	}
	c.mu.Lock()
	for id := range c.seen {
		if live[id] == nil {
			delete(c.seen, id)
		}
	}
	var victims []*mcp.ServerSession
	for len(live) >= c.max {
		oldest, at := "", time.Time{}
		for id := range live {
			if t := c.seen[id]; oldest == "" || t.Before(at) {
				oldest, at = id, t
			}
		}
		victims = append(victims, live[oldest])
		delete(live, oldest)
		delete(c.seen, oldest)
	}
	c.mu.Unlock()
	for _, ss := range victims {
		ss.Close()
	}
}
