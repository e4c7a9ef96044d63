package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"incidents/data/incident"
)

// Generation is one computed set of related-case links. Exactly one
// generation is current once any exists; the previous one is kept for
// Rollback and older ones are dropped.
type Generation struct {
	Gen        int64     `json:"generation"`
	CreatedAt  time.Time `json:"created_at"`
	Cases      int       `json:"cases"`
	NewestDate string    `json:"newest_date,omitempty"`
	NewestID   string    `json:"newest_id,omitempty"`
	Params     string    `json:"params,omitempty"`
	Current    bool      `json:"current"`
}

// WriteGeneration stores links (keyed by the case they start from) as a new
// generation and makes it current, in one write: readers see the old
// or the new generation, never a mix. The previously current generation is
// kept; older ones are dropped. g.Gen and g.Current are ignored; a zero
// g.CreatedAt means now (or the last change to the cases or overrides, if
// that is later: see generationTime). A link's Rank of 0 is replaced by its position.
func (s *Store) WriteGeneration(ctx context.Context, g Generation, links map[string][]incident.Link) (int64, error) {
	return s.WriteGenerationStream(ctx, g, func(emit func(from string, links []incident.Link) error) error {
		return eachSorted(links, emit)
	})
}

// WriteGenerationStream is WriteGeneration for links produced while they
// are written: produce calls emit once per case (in any order, each case
// at most once) and the links are appended as they come, so they need
// not all be held in memory. Everything happens in one write; an error
// from produce or emit rolls it back.
//
// The generation rows are versioned like every other row (batch.go): the
// write appends the new generation (current) and a copy of the previous
// current one (not current) and retires the generation rows it replaces;
// links belong to a generation whose row is visible, so the links of a
// dropped generation disappear with the commit record and cleanup
// removes them.
func (s *Store) WriteGenerationStream(ctx context.Context, g Generation, produce func(emit func(from string, links []incident.Link) error) error) (int64, error) {
	stampNow := g.CreatedAt.IsZero()
	var gen int64
	defer s.limitMemory(ctx, linkWriteMemory)()
	err := s.write(ctx, func(w *writer) error {
		if err := w.begin(); err != nil {
			return err
		}
		if stampNow {
			at, err := generationTime(ctx, w.c)
			if err != nil {
				return err
			}
			g.CreatedAt = at
		}
		if err := w.c.QueryRowContext(ctx, `SELECT coalesce(max(gen), 0) + 1 FROM core.generations`).Scan(&gen); err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `INSERT INTO core.generations
SELECT * REPLACE (false AS current, ?::BIGINT AS batch, NULL::BIGINT AS retired_by) FROM core.live_generations WHERE current`, w.id); err != nil {
			return err
		}
		if _, err := w.retire("generations", "gen <> ?", gen); err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `INSERT INTO core.generations VALUES (?, ?, ?, ?, ?, ?, true, ?, NULL)`,
			gen, g.CreatedAt.UTC(), g.Cases, nullStr(g.NewestDate), nullStr(g.NewestID), nullStr(g.Params), w.id); err != nil {
			return err
		}
		return appendLinks(w.c, gen, w.id, produce)
	})
	if err != nil {
		return 0, err
	}
	return gen, nil
}

// eachSorted calls emit for every case of links in id order.
func eachSorted(links map[string][]incident.Link, emit func(from string, links []incident.Link) error) error {
	from := make([]string, 0, len(links))
	for id := range links {
		from = append(from, id)
	}
	sort.Strings(from)
	for _, id := range from {
		if err := emit(id, links[id]); err != nil {
			return err
		}
	}
	return nil
}

// appendLinks appends the links produce emits to core.links under
// generation gen, written by batch.
func appendLinks(c *sql.Conn, gen, batch int64, produce func(emit func(from string, links []incident.Link) error) error) error {
	return c.Raw(func(dc any) error {
		a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "core", "links")
		if err != nil {
			return err
		}
		var buf []byte
		var terms []any // the shared terms as the appender takes a list without reflection
		rows := 0
		err = produce(func(id string, links []incident.Link) error {
			if rows >= linkRowsPerCommit {
				rows = 0
				var err error
				if a, err = recommit(dc, a); err != nil {
					return err
				}
			}
			rows += len(links)
			for i, l := range links {
				rank := l.Rank
				if rank == 0 {
					rank = i + 1
				}
				var shared driver.Value
				if len(l.SharedTags) > 0 {
					buf = appendSharedTags(buf[:0], l.SharedTags)
					shared = string(buf)
				}
				var st driver.Value
				if l.SharedTerms != nil {
					terms = terms[:0]
					for _, t := range l.SharedTerms {
						terms = append(terms, t)
					}
					st = terms
				}
				if err := a.AppendRow(gen, id, l.To, int32(rank), l.Score, l.TextScore, l.TagScore, nullStr(l.Reason), shared, st, l.Pinned, batch, nil, nullStr(l.Event)); err != nil {
					return fmt.Errorf("link %s -> %s: %w", id, l.To, err)
				}
			}
			return nil
		})
		if err != nil {
			if a != nil {
				a.Close()
			}
			return err
		}
		return a.Close()
	})
}

// linkWriteMemory is DuckDB's memory limit while a generation is written.
const linkWriteMemory = "256MB"

// linkRowsPerCommit is how many links a generation's write appends before
// it commits DuckDB's transaction and begins the next one, so that DuckDB
// holds at most about that many uncommitted rows in memory (a 100k-case
// recompute writes a million). This keeps the write all or nothing: its
// rows carry its batch id, and only its commit record makes any of them
// visible (batch.go); a write that fails or is killed after some of these
// commits leaves rows above the watermark, which readers never see and
// cleanup removes. Measured in the README's Scaling (peak RSS of
// related --recompute at 100k). A variable so that tests can make the
// write commit often.
var linkRowsPerCommit = 2 * 122880

// recommit closes appender a, commits the transaction of its connection,
// begins the next one and returns a new appender on the links (nil with an
// error).
func recommit(dc any, a *duckdb.Appender) (*duckdb.Appender, error) {
	if err := a.Close(); err != nil {
		return nil, err
	}
	ex := dc.(driver.ExecerContext)
	for _, q := range []string{"COMMIT", "BEGIN TRANSACTION"} {
		if _, err := ex.ExecContext(context.Background(), q, nil); err != nil {
			return nil, err
		}
	}
	return duckdb.NewAppenderFromConn(dc.(driver.Conn), "core", "links")
}

// appendSharedTags encodes shared tags exactly as json.Marshal does (keys
// sorted, HTML-safe escaping) without reflection.
func appendSharedTags(b []byte, m map[incident.Facet][]string) []byte {
	var keys [8]incident.Facet
	ks := keys[:0]
	for f := range m {
		ks = append(ks, f)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	b = append(b, '{')
	for i, f := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, string(f))
		b = append(b, ':')
		if m[f] == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for j, t := range m[f] {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, t)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONString appends s as a JSON string the way encoding/json does:
// plain printable ASCII is copied, anything else goes through json.Marshal.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendLinks adds or replaces the links of some cases in the current
// generation (incremental ingest): every listed case's links are replaced,
// in one write.
func (s *Store) AppendLinks(ctx context.Context, links map[string][]incident.Link) error {
	if len(links) == 0 {
		return nil
	}
	return s.write(ctx, func(w *writer) error {
		var gen sql.NullInt64
		if err := w.c.QueryRowContext(ctx, `SELECT max(gen) FROM core.live_generations WHERE current`).Scan(&gen); err != nil {
			return err
		}
		if !gen.Valid {
			return errors.New("there is no current link generation to add links to; compute one first with 'incidents related --recompute'")
		}
		if err := w.begin(); err != nil {
			return err
		}
		ids := make([]string, 0, len(links))
		for id := range links {
			ids = append(ids, id)
		}
		if err := withIDs(ctx, w.c, ids); err != nil {
			return err
		}
		if _, err := w.retire("links", `generation = ? AND from_id IN (SELECT id FROM temp.batch_ids)`, gen.Int64); err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `DROP TABLE temp.batch_ids`); err != nil {
			return err
		}
		return appendLinks(w.c, gen.Int64, w.id, func(emit func(from string, links []incident.Link) error) error {
			return eachSorted(links, emit)
		})
	})
}

const genCols = `gen, created_at, coalesce(cases, 0), coalesce(newest_date, ''), coalesce(newest_id, ''), coalesce(params, ''), current`

func scanGen(r interface{ Scan(...any) error }) (Generation, error) {
	var g Generation
	err := r.Scan(&g.Gen, &g.CreatedAt, &g.Cases, &g.NewestDate, &g.NewestID, &g.Params, &g.Current)
	return g, err
}

// CurrentGeneration returns the current generation, or nil, nil when none
// has been written.
func (s *Store) CurrentGeneration(ctx context.Context) (*Generation, error) {
	g, err := scanGen(s.h.db.QueryRowContext(ctx, `SELECT `+genCols+` FROM core.live_generations WHERE current ORDER BY gen DESC LIMIT 1`))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// Generations lists the kept generations, newest first.
func (s *Store) Generations(ctx context.Context) ([]Generation, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT `+genCols+` FROM core.live_generations ORDER BY gen DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Generation
	for rows.Next() {
		g, err := scanGen(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Rollback makes the previous generation current again and returns it.
// Calling it twice swaps back. Like every write it appends new versions
// of the generation rows and retires the old ones.
func (s *Store) Rollback(ctx context.Context) (*Generation, error) {
	var out *Generation
	err := s.write(ctx, func(w *writer) error {
		var other sql.NullInt64
		if err := w.c.QueryRowContext(ctx, `SELECT max(gen) FILTER (WHERE NOT current) FROM core.live_generations`).Scan(&other); err != nil {
			return err
		}
		if !other.Valid {
			return errors.New("there is no previous link generation to roll back to")
		}
		if err := w.begin(); err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `INSERT INTO core.generations
SELECT * REPLACE ((gen = ?) AS current, ?::BIGINT AS batch, NULL::BIGINT AS retired_by) FROM core.live_generations`, other.Int64, w.id); err != nil {
			return err
		}
		if _, err := w.retire("generations", "true"); err != nil {
			return err
		}
		g, err := scanGen(w.c.QueryRowContext(ctx, `SELECT `+genCols+` FROM `+asOf("generations", w.id)+` WHERE gen = ?`, other.Int64))
		if err != nil {
			return err
		}
		out = &g
		return nil
	})
	return out, err
}

const linkCols = `from_id, to_id, rank, coalesce(score, 0), coalesce(text_score, 0), coalesce(tag_score, 0), coalesce(reason, ''), shared_tags, shared_terms, coalesce(pinned, false), coalesce(event, '')`

func scanLink(r interface{ Scan(...any) error }) (incident.Link, error) {
	var l incident.Link
	var shared sql.NullString
	var terms any
	if err := r.Scan(&l.From, &l.To, &l.Rank, &l.Score, &l.TextScore, &l.TagScore, &l.Reason, &shared, &terms, &l.Pinned, &l.Event); err != nil {
		return l, err
	}
	if shared.Valid && shared.String != "" {
		if err := json.Unmarshal([]byte(shared.String), &l.SharedTags); err != nil {
			return l, fmt.Errorf("link %s -> %s: shared tags: %w", l.From, l.To, err)
		}
	}
	if xs, ok := terms.([]any); ok {
		l.SharedTerms = make([]string, 0, len(xs))
		for _, x := range xs {
			if s, ok := x.(string); ok {
				l.SharedTerms = append(l.SharedTerms, s)
			}
		}
	}
	return l, nil
}

// Links returns the current generation's links from case id, by rank.
func (s *Store) Links(ctx context.Context, id string) ([]incident.Link, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT `+linkCols+` FROM core.live_links
		WHERE from_id = ? AND generation = (SELECT max(gen) FROM core.live_generations WHERE current) ORDER BY rank, to_id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []incident.Link
	for rows.Next() {
		l, err := scanLink(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// EachLinks streams the links of generation gen (0: the current one),
// grouped by the case they start from, in case id order.
func (s *Store) EachLinks(ctx context.Context, gen int64, fn func(from string, links []incident.Link) error) error {
	if gen == 0 {
		g, err := s.CurrentGeneration(ctx)
		if err != nil || g == nil {
			return err
		}
		gen = g.Gen
	}
	rows, err := s.h.db.QueryContext(ctx, `SELECT `+linkCols+` FROM core.live_links WHERE generation = ? ORDER BY from_id, rank, to_id`, gen)
	if err != nil {
		return err
	}
	defer rows.Close()
	var cur string
	var batch []incident.Link
	for rows.Next() {
		l, err := scanLink(rows)
		if err != nil {
			return err
		}
		if l.From != cur && len(batch) > 0 {
			if err := fn(cur, batch); err != nil {
				return err
			}
			batch = nil
		}
		cur = l.From
		batch = append(batch, l)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(batch) > 0 {
		return fn(cur, batch)
	}
	return nil
}

// LinkTargets returns, for every case with links in the current
// generation, the cases they lead to by rank: what an update needs to
// know of the stored lists (see similarity.UpdateLinks).
func (s *Store) LinkTargets(ctx context.Context) (map[string][]string, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT from_id, to_id FROM core.live_links
WHERE generation = (SELECT max(gen) FROM core.live_generations WHERE current) ORDER BY from_id, rank, to_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	var cur string
	var run []string
	for rows.Next() {
		var from, to string
		if err := rows.Scan(&from, &to); err != nil {
			return nil, err
		}
		if from != cur && run != nil {
			out[cur] = run
			run = nil
		}
		cur = from
		run = append(run, to)
	}
	if run != nil {
		out[cur] = run
	}
	return out, rows.Err()
}
