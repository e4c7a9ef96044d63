package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"incidents/data/incident"
)

// Status is what an upsert did to one case.
type Status string

// Upsert statuses.
const (
	StatusNew       Status = "new"
	StatusUpdated   Status = "updated"
	StatusUnchanged Status = "unchanged"
)

// RunInfo describes one ingest run for the core.ingest_runs table.
type RunInfo struct {
	// Source says what was ingested: "bundled" or the paths given.
	Source string
	// Files is the number of files read; Rejected the number refused.
	Files, Rejected int
	// Started is when the run began (zero: now).
	Started time.Time
	// Analysis, when set, also stores what a text analysis makes of every
	// case the run adds or changes (see Analysis).
	Analysis *Analysis
}

// Analysis is a text analysis whose result is stored with each case
// written (core.terms), keyed by the case's content hash and by Key, so
// that an index reads it back (EachIndexed) instead of analysing the text
// again. The store does not read it: it is whatever New's functions return.
type Analysis struct {
	// Key names the analysis; a result is only read back under its key.
	Key string
	// New returns an analyser for one goroutine, which returns the
	// encoded analysis of a case, and what to call when it is no longer
	// needed (nil: nothing).
	New func() (analyse func(*incident.Incident) []byte, done func())
}

// ItemStatus is the outcome for one case.
type ItemStatus struct {
	ID     string `json:"id"`
	File   string `json:"file,omitempty"`
	Status Status `json:"status"`
}

// IngestReport says what an Upsert did. Run is 0 when nothing changed:
// an ingest that changes no case writes nothing at all, not even a run
// record, so re-importing the same files leaves the database identical.
type IngestReport struct {
	Run                     int64        `json:"run"`
	Items                   []ItemStatus `json:"items"`
	New, Updated, Unchanged int
}

// Upsert stores cases in one write (one transaction made visible by its
// commit record; see batch.go). The content hash decides:
// identical content is "unchanged" and not written; changed content is
// "updated": imported tags, sources, action items and references are
// replaced while human and automatic tags are kept (an imported tag with
// the key of a kept automatic tag replaces it; a kept human tag wins over
// an imported one). Incoming human or automatic tags are merged the same
// way; a case with unchanged content that brings a human or automatic tag
// the store lacks is "updated" as well (so an edited case file that only
// adds human tags is not ignored, while re-importing what 'show -o json'
// printed stays "unchanged"). Any error, or a crash at any point, leaves
// what readers see unchanged.
func (s *Store) Upsert(ctx context.Context, incs []*incident.Incident, run RunInfo) (*IngestReport, error) {
	if s.readOnly {
		return nil, ErrReadOnly
	}
	if run.Started.IsZero() {
		run.Started = time.Now()
	}
	if err := uniqueIDs(incs); err != nil {
		return nil, err
	}
	// Validate, hash and marshal on every CPU while the existing hashes are
	// read and, for a first load, while the cases are appended.
	enc := startEncoder(incs)
	var rep *IngestReport
	tr := trace("upsert")
	err := s.write(ctx, func(w *writer) error {
		p, err := planUpsert(ctx, w.c, incs, enc)
		if err != nil {
			return err
		}
		if rep = p.rep; len(p.changed) == 0 {
			return nil
		}
		if err := w.begin(); err != nil {
			return err
		}
		// The changed cases' updated_at (and a new case's ingested_at):
		// strictly after every stored generation, so that the stored links
		// count as stale (LinksFresh).
		now, err := changeTime(ctx, w.c)
		if err != nil {
			return err
		}
		kept, err := supersede(w, p.updatedIDs)
		if err != nil {
			return err
		}
		if err := w.c.QueryRowContext(ctx, `SELECT coalesce(max(run), 0) + 1 FROM core.live_ingest_runs`).Scan(&rep.Run); err != nil {
			return err
		}
		tr("prepare")
		an := startAnalysis(p.incs, p.changed, run.Analysis)
		return appendAll(w.c, w.id, func(ap *appenders) error {
			defer tr("append")
			return p.appendCases(ap, enc, an, kept, rep.Run, now)
		}, func() error {
			_, err := w.c.ExecContext(ctx, `INSERT INTO core.ingest_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
				rep.Run, run.Started.UTC(), time.Now().UTC(), run.Source, run.Files, run.Rejected, rep.New, rep.Updated, rep.Unchanged, w.id)
			if err == nil && testHookBeforeCommit != nil {
				err = testHookBeforeCommit()
			}
			return err
		})
	})
	tr("commit")
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// testHookBeforeCommit, when set by a test, runs at the end of an
// upsert's transaction; an error from it must roll everything back.
var testHookBeforeCommit func() error

// withIDs loads ids into the temporary table temp.batch_ids.
func withIDs(ctx context.Context, c *sql.Conn, ids []string) error {
	if _, err := c.ExecContext(ctx, `CREATE OR REPLACE TEMP TABLE batch_ids (id VARCHAR)`); err != nil {
		return err
	}
	return c.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), "temp", "main", "batch_ids")
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := a.AppendRow(id); err != nil {
				a.Close()
				return err
			}
		}
		return a.Close()
	})
}

// appenders holds one Appender per base table written by an upsert, and
// the batch id every row gets.
type appenders struct {
	inc, tags, sources, actions, refs, terms *duckdb.Appender
	batch                                    int64
}

// appendAll opens the appenders on c, runs fill, closes (flushes) them, then
// runs after. The caller's transaction makes the whole thing atomic.
func appendAll(c *sql.Conn, batch int64, fill func(*appenders) error, after func() error) error {
	err := c.Raw(func(dc any) error {
		conn := dc.(driver.Conn)
		ap := appenders{batch: batch}
		var all []*duckdb.Appender
		for _, x := range []struct {
			dst   **duckdb.Appender
			table string
		}{{&ap.inc, "incidents"}, {&ap.tags, "tags"}, {&ap.sources, "sources"}, {&ap.actions, "action_items"}, {&ap.refs, "refs"}, {&ap.terms, "terms"}} {
			a, err := duckdb.NewAppenderFromConn(conn, "core", x.table)
			if err != nil {
				for _, o := range all {
					o.Close()
				}
				return err
			}
			*x.dst = a
			all = append(all, a)
		}
		ferr := fill(&ap)
		for _, a := range all {
			if cerr := a.Close(); cerr != nil && ferr == nil {
				ferr = cerr
			}
		}
		return ferr
	})
	if err != nil {
		return err
	}
	if after != nil {
		return after()
	}
	return nil
}

// addCase appends one case and its child rows.
func (ap *appenders) addCase(in *incident.Incident, hash string, doc []byte, run int64, ingested, now time.Time, tags []incident.Tag) error {
	var year, month, quarter, day driver.Value
	if y, m, ok := in.YearMonth(); ok {
		year = int32(y)
		if m > 0 {
			month = int32(m)
			quarter = incident.QuarterOf(y, time.Month(m))
		}
	}
	if d, ok := in.Day(); ok {
		day = d
	}
	rootCause, rootClass := rootCauseOf(tags)
	if err := ap.inc.AppendRow(
		in.ID, in.Org, nullStr(in.Product), in.Title, nullStr(in.Summary), nullStr(in.Date), day, year, month, quarter,
		ts(in.Start), ts(in.Detected), ts(in.Mitigated), ts(in.Resolved), nullStr(in.TimeZone),
		durMin(in.TTD), durSrc(in.TTD), durMin(in.TTR), durSrc(in.TTR),
		nullStr(in.Severity), nullStr(in.Scope), nullStr(in.UsersAffected), nullStr(in.Region),
		list(in.Categories), list(in.Keywords), nullStr(in.Format), nullStr(in.SourceFile), caseSchema(in.Schema),
		hash, doc, run, ingested, now,
		rootCause, rootClass, int64(len(in.Sources)), int64(len(tags)), ap.batch, nil, list(in.Aliases), nullStr(in.DuplicateOf),
	); err != nil {
		return err
	}
	for i, t := range tags {
		if err := ap.tags.AppendRow(in.ID, int32(i), string(t.Facet), nullStr(t.Term), nullStr(t.Raw), string(t.Origin), nullF(t.Confidence), nullStr(t.Evidence), ap.batch, nil); err != nil {
			return err
		}
	}
	for i, src := range in.Sources {
		if err := ap.sources.AppendRow(in.ID, int32(i), nullStr(src.URL), nullStr(src.Kind), nullStr(src.Note), ap.batch, nil); err != nil {
			return err
		}
	}
	for i, a := range in.ActionItems {
		if err := ap.actions.AppendRow(in.ID, int32(i), a, ap.batch, nil); err != nil {
			return err
		}
	}
	for i, r := range in.References {
		var y driver.Value
		if r.Year != 0 {
			y = int32(r.Year)
		}
		if err := ap.refs.AppendRow(in.ID, int32(i), r.ID, nullStr(r.Title), nullStr(r.Org), y, nullStr(r.Reason), ap.batch, nil); err != nil {
			return err
		}
	}
	return nil
}

func ts(t *time.Time) driver.Value {
	if t == nil {
		return nil
	}
	return t.UTC()
}

func durMin(d *incident.Duration) driver.Value {
	if d == nil {
		return nil
	}
	return d.Minutes
}

func durSrc(d *incident.Duration) driver.Value {
	if d == nil || d.Source == "" {
		return nil
	}
	return d.Source
}

func nullF(f float64) driver.Value {
	if f == 0 {
		return nil
	}
	return f
}

func list(l []string) driver.Value {
	if l == nil {
		return nil
	}
	return l
}
