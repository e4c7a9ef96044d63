package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"incidents/data/incident"
)

// The commit record. DuckDB writes large appends into the database file
// before their transaction commits ("optimistic writes"), and a process
// killed while such a transaction commits can leave some of those rows in
// the file after recovery without the rest of the transaction (seen with
// 1.5: the appended row groups of one table come back, the other tables'
// rows, deletes and updates do not; duckdb/duckdb#25931). So no write of
// this package relies on the atomicity of its big transaction. Instead:
//
//   - Every write gets a batch id, reserved in a transaction of its own
//     that commits before the write starts (core.watermark.reserved), so
//     an id is never used twice, even after a crash.
//   - The write's transaction only appends rows, each carrying batch =
//     the id, and marks the rows it supersedes with retired_by = the id.
//     It never deletes or updates in place anything a reader still needs.
//   - Then a second transaction, one row, moves the watermark
//     (core.watermark.committed) to the id: that is the commit record.
//   - Readers see a row when batch <= committed and it is not retired by
//     a batch <= committed (the core.live_* views, liveView; the links of
//     a generation also need their generation visible). Rows of a write
//     killed before its commit record are above the watermark and stay
//     hidden, whatever part of them the engine recovered; what it marked
//     retired stays visible.
//   - cleanup then removes what no reader can see: rows above the
//     watermark (leftovers of a killed write), rows retired at or below it
//     (superseded versions), links of generations no longer visible, and
//     clears stale retired_by marks. It runs right after each commit
//     record, on every read-write open before anything else, and before
//     every write. On a clean database it only reads, so opening one
//     writes nothing.
//
// A read-only open never writes, so it may find leftovers; the live views
// hide them, and Hidden counts them for 'incidents check'.

// versioned lists the core tables whose rows carry batch and retired_by.
// Each has the view core.live_<table>.
var versioned = []string{"incidents", "tags", "sources", "action_items", "refs", "links", "generations", "overrides", "ingest_runs", "terms", "audit"}

// liveView is the SQL of core.live_<table>: the rows the commit record
// makes visible. A cross join with the one-row watermark keeps the filter
// a plain comparison the engine evaluates per vector.
func liveView(table string) string {
	q := `SELECT t.* FROM core.` + table + ` t, core.watermark w
WHERE t.batch <= w.committed AND (t.retired_by IS NULL OR t.retired_by > w.committed)`
	if table == "links" {
		q += `
	AND t.generation IN (SELECT gen FROM core.live_generations)`
	}
	return q
}

// internalViews are the core.live_* views, created with the public ones.
// Generations come before links, whose view reads theirs.
func internalViews() []View {
	out := make([]View, 0, len(versioned))
	for _, t := range []string{"generations", "incidents", "tags", "sources", "action_items", "refs", "links", "overrides", "ingest_runs", "terms", "audit"} {
		out = append(out, View{Name: "live_" + t, SQL: liveView(t)})
	}
	return out
}

// asOf is table as a write with batch id b sees it once committed: the
// visible rows plus the ones the write appended, minus the ones it
// retired. Inside the write's transaction the live views still show the
// state before it.
func asOf(table string, b int64) string {
	n := strconv.FormatInt(b, 10)
	return `(SELECT * FROM core.` + table + ` WHERE batch <= ` + n + ` AND (retired_by IS NULL OR retired_by > ` + n + `))`
}

// writer is one write under the commit record protocol (Store.write).
type writer struct {
	ctx context.Context
	c   *sql.Conn
	// id is the batch id, 0 until begin.
	id int64
	// overridesChanged, when set, is recorded with the commit record as
	// the time the overrides changed (see overrides.go).
	overridesChanged time.Time
	// casesDeleted, when set, is recorded with the commit record as the
	// time cases were deleted (see fresh.go).
	casesDeleted time.Time
}

// retire marks the current rows of table matching where (with args) as
// superseded by this write.
func (w *writer) retire(table, where string, args ...any) (int64, error) {
	res, err := w.c.ExecContext(w.ctx, `UPDATE core.`+table+` SET retired_by = ? WHERE retired_by IS NULL AND batch < ? AND (`+where+`)`,
		append([]any{w.id, w.id}, args...)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// begin reserves the write's batch id in a transaction of its own, then
// opens the write's transaction. Before begin, fn of Store.write may only
// read: a write that finds nothing to change never calls it and so
// changes nothing.
func (w *writer) begin() error {
	if w.id != 0 {
		return errors.New("store: write begun twice")
	}
	var id int64
	tr := trace("begin")
	defer tr("reserved")
	err := connTx(w.ctx, w.c, func() error {
		return w.c.QueryRowContext(w.ctx, `UPDATE core.watermark SET reserved = greatest(reserved, committed) + 1 RETURNING reserved`).Scan(&id)
	})
	if err != nil {
		return fmt.Errorf("reserving a batch id: %w", err)
	}
	if _, err := w.c.ExecContext(w.ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	w.id = id
	return nil
}

// testHookWrite, when set by a test, runs after each step of a write
// ("committed": the write's transaction; "recorded": the commit record);
// an error stops the write there, as a crash would.
var testHookWrite func(step string) error

// write runs fn as one write: after any leftovers are cleaned, fn reads
// what it needs, calls w.begin and appends and retires rows; write then
// commits that transaction, records the commit and removes what the
// write superseded. An error from fn rolls its transaction back. Only
// one write runs at a time per database in this process.
func (s *Store) write(ctx context.Context, fn func(w *writer) error) error {
	return s.writeConn(ctx, func(c *sql.Conn) error { return writeOn(ctx, c, fn) })
}

// writeOn is write on the connection c, under the write lock.
func writeOn(ctx context.Context, c *sql.Conn, fn func(w *writer) error) error {
	if _, err := cleanup(ctx, c); err != nil {
		return err
	}
	w := &writer{ctx: ctx, c: c}
	tr := trace("write")
	if err := runWrite(w, fn); err != nil || w.id == 0 {
		if err != nil && w.id != 0 {
			// A write may have committed parts of itself (a generation's
			// links, see linkRowsPerCommit): above the watermark they are
			// invisible; removing them now spares the next write.
			cleanup(context.WithoutCancel(ctx), c)
		}
		return err
	}
	tr("fn+commit")
	if testHookWrite != nil {
		if err := testHookWrite("committed"); err != nil {
			return err
		}
	}
	// The write's transaction is committed: the commit record is written
	// whatever the context says, so that a stop signal arriving now cannot
	// leave a recorded write reported as failed (nor a failed one as done).
	if err := record(context.WithoutCancel(ctx), c, w); err != nil {
		return err
	}
	tr("record")
	if testHookWrite != nil {
		if err := testHookWrite("recorded"); err != nil {
			return err
		}
	}
	// The write is committed and visible; what is left only takes space,
	// and the next open or write removes it if this fails.
	cleanup(context.WithoutCancel(ctx), c)
	tr("cleanup")
	return nil
}

// runWrite runs fn and commits its transaction, or rolls it back on an
// error or a panic.
func runWrite(w *writer, fn func(w *writer) error) (err error) {
	defer func() {
		p := recover()
		if w.id != 0 && (err != nil || p != nil) {
			if _, rerr := w.c.ExecContext(context.Background(), "ROLLBACK"); rerr != nil && err != nil {
				err = fmt.Errorf("%w (rollback: %v)", err, rerr)
			}
		}
		if p != nil {
			panic(p)
		}
	}()
	if err := fn(w); err != nil || w.id == 0 {
		return err
	}
	if _, err := w.c.ExecContext(w.ctx, "COMMIT"); err != nil {
		return err
	}
	return nil
}

// record writes the commit record of w: one row, in a transaction of its
// own, after w's transaction committed.
func record(ctx context.Context, c *sql.Conn, w *writer) error {
	return connTx(ctx, c, func() error {
		var changed, deleted any
		if !w.overridesChanged.IsZero() {
			changed = w.overridesChanged.UTC()
		}
		if !w.casesDeleted.IsZero() {
			deleted = w.casesDeleted.UTC()
		}
		res, err := c.ExecContext(ctx, `UPDATE core.watermark SET committed = ?, committed_at = ?,
	overrides_changed_at = coalesce(?, overrides_changed_at), cases_deleted_at = coalesce(?, cases_deleted_at)
WHERE reserved = ? AND committed < ?`,
			w.id, time.Now().UTC(), changed, deleted, w.id, w.id)
		if err != nil {
			return fmt.Errorf("recording the commit of batch %d: %w", w.id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("recording the commit of batch %d: the commit record changed meanwhile (%d rows, %v)", w.id, n, err)
		}
		return nil
	})
}

// connTx runs fn in one transaction on c.
func connTx(ctx context.Context, c *sql.Conn, fn func() error) (err error) {
	if _, err := c.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	defer func() {
		p := recover()
		if err != nil || p != nil {
			if _, rerr := c.ExecContext(context.Background(), "ROLLBACK"); rerr != nil && err != nil {
				err = fmt.Errorf("%w (rollback: %v)", err, rerr)
			}
			if p != nil {
				panic(p)
			}
			return
		}
		if _, cerr := c.ExecContext(ctx, "COMMIT"); cerr != nil {
			c.ExecContext(context.Background(), "ROLLBACK")
			err = cerr
		}
	}()
	return fn()
}

// staleRows is true for a row cleanup deletes or repairs: no committed
// batch wrote it, or it is retired (at or above the watermark: a stale
// mark of a killed write, which cleanup clears).
const staleRows = `t.batch IS NULL OR t.batch > w.committed OR t.retired_by IS NOT NULL`

// leftoverSQL counts, per versioned table (one row each: name, count),
// the rows cleanup deletes or repairs; for links also those of
// generations no longer visible. (One UNION ALL: DuckDB plans it in a
// tenth of the time nine scalar subqueries take.)
func leftoverSQL() string {
	var b strings.Builder
	for i, t := range versioned {
		if i > 0 {
			b.WriteString("\nUNION ALL ")
		}
		cond := staleRows
		if t == "links" {
			cond += ` OR t.generation NOT IN (SELECT gen FROM core.live_generations)`
		}
		fmt.Fprintf(&b, "SELECT '%s', count(*) FROM core.%s t, core.watermark w WHERE %s", t, t, cond)
	}
	return b.String()
}

// leftovers returns the leftoverSQL counts in versioned order, after
// checking that the commit record is whole.
func leftovers(ctx context.Context, q querier) ([]int64, error) {
	var n int
	var committed, reserved sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT count(*), max(committed), max(reserved) FROM core.watermark`).Scan(&n, &committed, &reserved); err != nil {
		return nil, err
	}
	if n != 1 || !committed.Valid || !reserved.Valid || reserved.Int64 < committed.Int64 {
		return nil, &incident.Error{Kind: incident.ErrSchema, Field: "core.watermark",
			Msg:  fmt.Sprintf("the commit record core.watermark is damaged (%d rows, committed %v, reserved %v)", n, committed, reserved),
			Hint: "it must hold exactly one row with reserved >= committed; restore the file from a backup or re-create it with 'incidents ingest'"}
	}
	rows, err := q.QueryContext(ctx, leftoverSQL())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byTable := make(map[string]int64, len(versioned))
	for rows.Next() {
		var t string
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return nil, err
		}
		byTable[t] = n
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	counts := make([]int64, len(versioned))
	for i, t := range versioned {
		counts[i] = byTable[t]
	}
	return counts, nil
}

// cleanup removes the rows no reader can see and clears stale retired
// marks, in one transaction, and returns how many rows it touched. It
// writes nothing when there is nothing to remove. A cleanup killed half
// way removes only invisible rows, so it is safe to stop anywhere and is
// simply run again.
func cleanup(ctx context.Context, c *sql.Conn) (int64, error) {
	counts, err := leftovers(ctx, c)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, n := range counts {
		total += n
	}
	if total == 0 {
		return 0, nil
	}
	tr := trace("cleanup")
	defer tr("done")
	err = connTx(ctx, c, func() error {
		for i, t := range versioned {
			if counts[i] == 0 {
				continue
			}
			del := `DELETE FROM core.` + t + ` WHERE batch IS NULL OR batch > (SELECT committed FROM core.watermark)
	OR retired_by <= (SELECT committed FROM core.watermark)`
			if t == "links" {
				del += ` OR generation NOT IN (SELECT gen FROM core.live_generations)`
			}
			if _, err := c.ExecContext(ctx, del); err != nil {
				return fmt.Errorf("removing leftovers from core.%s: %w", t, err)
			}
			if _, err := c.ExecContext(ctx, `UPDATE core.`+t+` SET retired_by = NULL WHERE retired_by IS NOT NULL`); err != nil {
				return fmt.Errorf("clearing retired marks in core.%s: %w", t, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	after, err := leftovers(ctx, c)
	if err != nil {
		return 0, err
	}
	for i, n := range after {
		if n != 0 {
			return 0, fmt.Errorf("removing leftovers: %d rows of core.%s remain", n, versioned[i])
		}
	}
	return total, nil
}

// Hidden returns the number of rows stored but not visible (left by a
// write that was interrupted before its commit record, or superseded and
// not yet removed) plus stale retired marks: what the next read-write
// open or write removes. A healthy database has none.
func (s *Store) Hidden(ctx context.Context) (int64, error) {
	counts, err := leftovers(ctx, s.h.db)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, n := range counts {
		total += n
	}
	return total, nil
}
