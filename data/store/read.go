package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"incidents/data/incident"
)

// Filter selects cases. Zero fields do not filter.
type Filter struct {
	// Since and Until bound the case date, inclusive: YYYY-MM-DD (or the
	// coarser YYYY-MM and YYYY, taken as the first / last day). A case dated
	// only to a month or year counts from the first day of that period.
	Since, Until string
	// Org matches the organisation case-insensitively.
	Org string
	// IDs keeps only these cases.
	IDs []string
	// Facet and Term keep cases with a tag of that facet and term (a term
	// also matches its subclasses: capacity matches capacity/cpu).
	Facet incident.Facet
	Term  string
	// Limit (0: no limit) and Offset page through the result.
	Limit, Offset int
	// NewestFirst orders the cases newest first, as serve lists them: by
	// date descending, then id descending, undated cases last (by id).
	NewestFirst bool
}

// orderBy is the ORDER BY of the cases f selects (aliased i).
func (f Filter) orderBy() string {
	if f.NewestFirst {
		return ` ORDER BY i.day DESC NULLS LAST, CASE WHEN i.day IS NULL THEN i.id END, i.id DESC`
	}
	return ` ORDER BY i.day NULLS LAST, i.id`
}

// Get returns one case with all its tags and its hash, or an *incident.Error
// of kind ErrNotFound. id may be one of the case's aliases or differ from
// its id in case (see ResolveID); the case returned carries its own id.
func (s *Store) Get(ctx context.Context, id string) (*incident.Incident, error) {
	var doc, hash string
	var x extra
	err := s.h.db.QueryRowContext(ctx, `SELECT doc, hash, `+extraCols+` FROM core.live_incidents i WHERE id = ?`, id).Scan(&doc, &hash, &x.format, &x.file, &x.schema)
	if errors.Is(err, sql.ErrNoRows) {
		own, rerr := s.ResolveID(ctx, id)
		if rerr != nil {
			return nil, rerr
		}
		id = own
		err = s.h.db.QueryRowContext(ctx, `SELECT doc, hash, `+extraCols+` FROM core.live_incidents i WHERE id = ?`, id).Scan(&doc, &hash, &x.format, &x.file, &x.schema)
	}
	if err != nil {
		return nil, err
	}
	in, err := decode(doc, hash, x)
	if err != nil {
		return nil, err
	}
	tags, err := tagsOf(ctx, s.h.db, `SELECT incident_id, facet, term, raw, origin, confidence, evidence FROM core.live_tags WHERE incident_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	in.Tags = tags[id]
	return in, nil
}

// Count returns the number of cases.
func (s *Store) Count(ctx context.Context) (int, error) {
	var n int
	err := s.h.db.QueryRowContext(ctx, `SELECT count(*) FROM core.live_incidents`).Scan(&n)
	return n, err
}

// List returns the cases f selects, ordered by date (undated last), then
// id, or newest first with f.NewestFirst.
func (s *Store) List(ctx context.Context, f Filter) ([]*incident.Incident, error) {
	var out []*incident.Incident
	err := s.Each(ctx, f, func(in *incident.Incident) error {
		out = append(out, in)
		return nil
	})
	return out, err
}

// Each streams the cases f selects, in List order, to fn; an error from fn
// stops the scan and is returned. Cases and their tags are read as two
// streams in the same order and merged, so memory stays flat.
func (s *Store) Each(ctx context.Context, f Filter, fn func(*incident.Incident) error) error {
	where, args, err := f.sql()
	if err != nil {
		return err
	}
	page := ""
	if f.Limit > 0 {
		page += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	if f.Offset > 0 {
		page += fmt.Sprintf(" OFFSET %d", f.Offset)
	}
	order := f.orderBy()
	rows, err := s.h.db.QueryContext(ctx, `SELECT i.id, i.doc, i.hash, `+extraCols+` FROM core.live_incidents i`+where+order+page, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	// Each selected case's tags, in the same case order, then by position.
	trows, err := s.h.db.QueryContext(ctx, `SELECT t.incident_id, t.facet, t.term, t.raw, t.origin, t.confidence, t.evidence
FROM core.live_tags t JOIN (SELECT i.id, i.day FROM core.live_incidents i`+where+order+page+`) i ON i.id = t.incident_id`+
		order+`, t.seq`, args...)
	if err != nil {
		return err
	}
	defer trows.Close()
	var pending *tagRow
	nextTag := func() (*tagRow, error) {
		if pending != nil {
			return pending, nil
		}
		if !trows.Next() {
			return nil, trows.Err()
		}
		var r tagRow
		if err := trows.Scan(&r.id, &r.facet, &r.term, &r.raw, &r.origin, &r.conf, &r.ev); err != nil {
			return nil, err
		}
		pending = &r
		return pending, nil
	}
	// Documents are decoded on every CPU, in batches, while fn sees the
	// cases in order.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := decodeStream(ctx, rows)
	for b := range batches {
		<-b.done
		if b.err != nil {
			return b.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		for k := range b.cases {
			c := &b.cases[k]
			for {
				r, err := nextTag()
				if err != nil {
					return err
				}
				if r == nil || r.id != c.id {
					break
				}
				c.in.Tags = append(c.in.Tags, r.tag())
				pending = nil
			}
			if err := fn(c.in); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// decodeBatch is a run of scanned cases decoded by one worker; done is
// closed when cases (or err) are ready.
type decodeBatch struct {
	cases []scanned
	err   error
	done  chan struct{}
}

type scanned struct {
	id, doc, hash string
	x             extra
	in            *incident.Incident
}

const decodeBatchSize = 128

// decodeStream scans rows (id, doc, hash, extra columns) in one goroutine
// and decodes the documents on every CPU. Batches arrive in row order; the
// channel is closed after the last one, or after a batch carrying an error.
func decodeStream(ctx context.Context, rows *sql.Rows) <-chan *decodeBatch {
	workers := runtime.GOMAXPROCS(0)
	ordered := make(chan *decodeBatch, 2*workers)
	work := make(chan *decodeBatch, 2*workers)
	for w := 0; w < workers; w++ {
		go func() {
			for b := range work {
				for k := range b.cases {
					c := &b.cases[k]
					if c.in, b.err = decode(c.doc, c.hash, c.x); b.err != nil {
						break
					}
					c.doc = ""
				}
				close(b.done)
			}
		}()
	}
	go func() {
		defer close(ordered)
		defer close(work)
		send := func(b *decodeBatch, toWork bool) bool {
			if toWork {
				select {
				case work <- b:
				case <-ctx.Done():
					return false
				}
			}
			select {
			case ordered <- b:
				return true
			case <-ctx.Done():
				return false
			}
		}
		b := &decodeBatch{done: make(chan struct{})}
		for rows.Next() {
			var c scanned
			if err := rows.Scan(&c.id, &c.doc, &c.hash, &c.x.format, &c.x.file, &c.x.schema); err != nil {
				b.err = err
				close(b.done)
				send(b, false)
				return
			}
			b.cases = append(b.cases, c)
			if len(b.cases) == decodeBatchSize {
				if !send(b, true) {
					return
				}
				b = &decodeBatch{done: make(chan struct{})}
			}
		}
		if err := rows.Err(); err != nil {
			b.err = err
			close(b.done)
			send(b, false)
			return
		}
		if len(b.cases) > 0 {
			send(b, true)
		}
	}()
	return ordered
}

// tagRow is one scanned core.live_tags row.
type tagRow struct {
	id, facet, origin string
	term, raw, ev     sql.NullString
	conf              sql.NullFloat64
}

func (r *tagRow) tag() incident.Tag {
	return incident.Tag{Facet: incident.Facet(r.facet), Term: r.term.String, Raw: r.raw.String, Origin: incident.Origin(r.origin), Confidence: r.conf.Float64, Evidence: r.ev.String}
}

// extra holds the case fields kept in columns rather than in doc.
type extra struct {
	format, file sql.NullString
	schema       sql.NullInt64
}

const extraCols = `i.format, i.source_file, i.case_schema`

func decode(doc, hash string, x extra) (*incident.Incident, error) {
	in := new(incident.Incident)
	if err := json.Unmarshal([]byte(doc), in); err != nil {
		return nil, fmt.Errorf("stored case is unreadable: %w", err)
	}
	in.Hash, in.Format, in.SourceFile, in.Schema = hash, x.format.String, x.file.String, int(x.schema.Int64)
	in.Tags = nil
	return in, nil
}

// sql renders the filter as a WHERE clause over core.live_incidents i.
func (f Filter) sql() (string, []any, error) {
	var conds []string
	var args []any
	if f.Since != "" {
		d, err := incident.DateBound("since", f.Since, false)
		if err != nil {
			return "", nil, err
		}
		conds = append(conds, "i.day >= ?")
		args = append(args, d)
	}
	if f.Until != "" {
		d, err := incident.DateBound("until", f.Until, true)
		if err != nil {
			return "", nil, err
		}
		conds = append(conds, "i.day <= ?")
		args = append(args, d)
	}
	if f.Org != "" {
		conds = append(conds, OrgKeySQL("i.org")+" = lower(?)")
		args = append(args, incident.NormalOrg(f.Org))
	}
	if len(f.IDs) > 0 {
		conds = append(conds, "i.id IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(f.IDs)), ", ")+")")
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	if f.Facet != "" || f.Term != "" {
		c := "EXISTS (SELECT 1 FROM core.live_tags x WHERE x.incident_id = i.id"
		if f.Facet != "" {
			c += " AND x.facet = ?"
			args = append(args, string(f.Facet))
		}
		if f.Term != "" {
			c += " AND (x.term = ? OR starts_with(x.term, ?))"
			args = append(args, f.Term, f.Term+"/")
		}
		conds = append(conds, c+")")
	}
	if len(conds) == 0 {
		return "", nil, nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args, nil
}

// tagsOf runs a query returning (incident_id, facet, term, raw, origin,
// confidence, evidence) rows and groups the tags by case.
func tagsOf(ctx context.Context, q querier, query string, args ...any) (map[string][]incident.Tag, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]incident.Tag{}
	for rows.Next() {
		var r tagRow
		if err := rows.Scan(&r.id, &r.facet, &r.term, &r.raw, &r.origin, &r.conf, &r.ev); err != nil {
			return nil, err
		}
		out[r.id] = append(out[r.id], r.tag())
	}
	return out, rows.Err()
}

// casesChunk bounds the ids of one query of Cases.
const casesChunk = 500

// Cases returns the stored cases with these ids (each with its tags);
// ids not stored are absent. The batch policy of an ingest reads what it
// updates through it (ingest.Stored).
func (s *Store) Cases(ctx context.Context, ids []string) (map[string]*incident.Incident, error) {
	out := make(map[string]*incident.Incident)
	for len(ids) > 0 {
		n := min(len(ids), casesChunk)
		err := s.Each(ctx, Filter{IDs: ids[:n]}, func(in *incident.Incident) error {
			out[in.ID] = in
			return nil
		})
		if err != nil {
			return nil, err
		}
		ids = ids[n:]
	}
	return out, nil
}

// Identities returns every case with only what duplicate detection
// compares (ingest.IdentityReader): id, organisation, date, start,
// aliases, source URLs, the content hash, and the format and file it was
// imported from. It reads columns, not the stored documents.
func (s *Store) Identities(ctx context.Context) ([]*incident.Incident, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT i.id, i.org, coalesce(i.date, ''), i.start_ts, i.aliases, s.urls, i.hash,
	coalesce(i.format, ''), coalesce(i.source_file, '')
FROM core.live_incidents i
LEFT JOIN (SELECT incident_id, list(url ORDER BY seq) AS urls FROM core.live_sources WHERE url IS NOT NULL GROUP BY incident_id) s ON s.incident_id = i.id
ORDER BY i.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*incident.Incident
	for rows.Next() {
		in := new(incident.Incident)
		var start sql.NullTime
		var aliases, urls any
		if err := rows.Scan(&in.ID, &in.Org, &in.Date, &start, &aliases, &urls, &in.Hash, &in.Format, &in.SourceFile); err != nil {
			return nil, err
		}
		if start.Valid {
			t := start.Time.UTC()
			in.Start = &t
		}
		in.Aliases = indexStrs(aliases)
		for _, u := range indexStrs(urls) {
			in.Sources = append(in.Sources, incident.Source{URL: u})
		}
		out = append(out, in)
	}
	return out, rows.Err()
}
