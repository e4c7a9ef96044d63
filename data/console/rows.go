package console

import (
	"bufio"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Result formats WriteRows knows.
const (
	FormatTable    = "table"
	FormatCSV      = "csv"
	FormatJSON     = "json" // JSON lines: one object per row
	FormatMarkdown = "markdown"
)

// TablePreview is how many rows the table format reads before it fixes the
// column widths; later rows are written as they come, clipped to those
// widths when longer.
const TablePreview = 1000

// maxCell is the widest a table cell may be.
const maxCell = 60

// WriteRows streams rows to w in format, row by row, and returns how many
// rows it wrote. Only the table format holds rows back: the first
// TablePreview, to size its columns. It does not close rows.
func WriteRows(w io.Writer, rows *sql.Rows, format string) (int64, error) {
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var rw rowWriter
	switch format {
	case FormatCSV:
		rw = &csvRows{w: csv.NewWriter(bw)}
	case FormatJSON:
		rw = &jsonRows{w: bw}
	case FormatMarkdown:
		rw = &mdRows{w: bw}
	case FormatTable, "":
		rw = &tableRows{w: bw}
	default:
		return 0, fmt.Errorf("unknown result format %q (use table, csv, json or markdown)", format)
	}
	if err := rw.header(cols); err != nil {
		return 0, err
	}
	sc := newScanner(rows, len(cols))
	var n int64
	for rows.Next() {
		vals, err := sc.scan(typed)
		if err != nil {
			return n, err
		}
		if err := rw.row(vals); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		rw.end(n)
		bw.Flush()
		return n, err
	}
	if err := rw.end(n); err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// scanner scans the rows of one result, each value rendered by a function
// of the value and its column's DuckDB type (typed, Cell).
type scanner struct {
	rows  *sql.Rows
	types []string
	vals  []any
	ptrs  []any
}

func newScanner(rows *sql.Rows, ncols int) *scanner {
	sc := &scanner{rows: rows, types: ColumnTypes(rows), vals: make([]any, ncols), ptrs: make([]any, ncols)}
	if len(sc.types) != ncols {
		sc.types = make([]string, ncols)
	}
	for i := range sc.vals {
		sc.ptrs[i] = &sc.vals[i]
	}
	return sc
}

// scan reads the current row; the slice is reused by the next call.
func (sc *scanner) scan(render func(v any, dbType string) any) ([]any, error) {
	if err := sc.rows.Scan(sc.ptrs...); err != nil {
		return nil, err
	}
	for i, v := range sc.vals {
		sc.vals[i] = render(v, sc.types[i])
	}
	return sc.vals, nil
}

type rowWriter interface {
	header(cols []string) error
	row(vals []any) error
	end(n int64) error
}

// typed renders the values whose Go form loses their SQL type: DATE, TIME
// and TIMESTAMP (all scanned as time.Time), UUID (16 bytes), INTERVAL and
// MAP (driver structs) become text or JSON as DuckDB itself prints them.
func typed(v any, dbType string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case time.Time:
		if inf, ok := infinite(x); ok {
			return inf
		}
		switch {
		case dbType == "DATE":
			return x.Format("2006-01-02")
		case strings.HasPrefix(dbType, "TIMESTAMP"):
			return x.UTC().Format(time.RFC3339Nano)
		case strings.HasPrefix(dbType, "TIME"):
			return x.Format("15:04:05.999999")
		}
	case []byte:
		if dbType == "UUID" && len(x) == 16 {
			return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
		}
	}
	switch {
	case dbType == "INTERVAL":
		return intervalText(v)
	case strings.HasPrefix(dbType, "MAP"):
		if b, err := json.Marshal(v); err == nil {
			return json.RawMessage(b)
		}
	}
	return v
}

// ColumnTypes returns the DuckDB type name of every column of rows ("" when
// the driver does not say).
func ColumnTypes(rows *sql.Rows) []string {
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil
	}
	out := make([]string, len(cts))
	for i, ct := range cts {
		out[i] = ct.DatabaseTypeName()
	}
	return out
}

// Cell renders a scanned value of SQL type dbType for JSON: numbers,
// booleans, lists and structs as themselves, everything else as the text
// WriteRows prints (NaN and infinities as text too, which JSON cannot hold).
func Cell(v any, dbType string) any {
	switch x := typed(v, dbType).(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Text(x)
		}
		return x
	case float32:
		return Cell(float64(x), "")
	default:
		return jsonValue(x)
	}
}

// Text renders a scanned value as text: "" for NULL, RFC 3339 for
// timestamps, JSON for lists and structs.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.RawMessage:
		return string(x)
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return fmt.Sprintf("%x", x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32, int16, int8, int, uint64, uint32, uint16, uint8, uint:
		return fmt.Sprint(x)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		if inf, ok := infinite(x); ok {
			return inf
		}
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.UTC().Format(time.RFC3339Nano)
	case *big.Int:
		return x.String()
	case duckdb.Union:
		return Text(x.Value)
	case fmt.Stringer:
		return x.String()
	case []any, map[string]any:
		b, err := json.Marshal(jsonValue(x))
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// jsonValue converts a scanned value into something encoding/json writes
// faithfully (timestamps as strings, maps with string keys).
func jsonValue(v any) any {
	switch x := v.(type) {
	case nil, string, bool, float64, float32, int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, uint, json.RawMessage:
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case *big.Int:
		return json.Number(x.String())
	case duckdb.Union:
		// DuckDB prints a UNION as the value of its current member.
		return jsonValue(x.Value)
	}
	return Text(v)
}

type csvRows struct{ w *csv.Writer }

func (c *csvRows) header(cols []string) error { return c.w.Write(cols) }
func (c *csvRows) row(vals []any) error {
	rec := make([]string, len(vals))
	for i, v := range vals {
		rec[i] = Text(v)
	}
	return c.w.Write(rec)
}
func (c *csvRows) end(int64) error { c.w.Flush(); return c.w.Error() }

type jsonRows struct {
	w    *bufio.Writer
	keys [][]byte
}

func (j *jsonRows) header(cols []string) error {
	for _, c := range UniqueNames(cols) {
		k, _ := json.Marshal(c)
		j.keys = append(j.keys, k)
	}
	return nil
}

func (j *jsonRows) row(vals []any) error {
	j.w.WriteByte('{')
	for i, v := range vals {
		if i > 0 {
			j.w.WriteByte(',')
		}
		j.w.Write(j.keys[i])
		j.w.WriteByte(':')
		b, err := json.Marshal(jsonValue(v))
		if err != nil {
			b, _ = json.Marshal(Text(v))
		}
		j.w.Write(b)
	}
	j.w.WriteString("}\n")
	return nil
}
func (j *jsonRows) end(int64) error { return nil }

type mdRows struct{ w *bufio.Writer }

func (m *mdRows) header(cols []string) error {
	cells := make([]string, len(cols))
	for i, c := range cols {
		cells[i] = MarkdownCell(c)
	}
	fmt.Fprintf(m.w, "| %s |\n|%s\n", strings.Join(cells, " | "), strings.Repeat(" --- |", len(cols)))
	return nil
}

func (m *mdRows) row(vals []any) error {
	cells := make([]string, len(vals))
	for i, v := range vals {
		if v == nil {
			cells[i] = "NULL"
			continue
		}
		cells[i] = MarkdownCell(Text(v))
	}
	_, err := fmt.Fprintf(m.w, "| %s |\n", strings.Join(cells, " | "))
	return err
}
func (m *mdRows) end(int64) error { return nil }

// tableRows buffers TablePreview rows to size the columns, then streams.
type tableRows struct {
	w      *bufio.Writer
	cols   []string
	buf    [][]string
	widths []int
}

func (t *tableRows) header(cols []string) error { t.cols = cols; return nil }

func (t *tableRows) cells(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		s := "NULL"
		if v != nil {
			s = Printable(Text(v))
		}
		if utf8.RuneCountInString(s) > maxCell {
			s = string([]rune(s)[:maxCell-1]) + "…"
		}
		out[i] = s
	}
	return out
}

func (t *tableRows) row(vals []any) error {
	c := t.cells(vals)
	if t.widths == nil {
		t.buf = append(t.buf, c)
		if len(t.buf) < TablePreview {
			return nil
		}
		t.flushPreview()
		return nil
	}
	t.line(c)
	return nil
}

func (t *tableRows) flushPreview() {
	t.widths = make([]int, len(t.cols))
	for i, c := range t.cols {
		t.widths[i] = utf8.RuneCountInString(c)
	}
	for _, r := range t.buf {
		for i, c := range r {
			t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
		}
	}
	t.line(t.cols)
	seps := make([]string, len(t.cols))
	for i, w := range t.widths {
		seps[i] = strings.Repeat("-", w)
	}
	t.line(seps)
	for _, r := range t.buf {
		t.line(r)
	}
	t.buf = nil
}

func (t *tableRows) line(cells []string) {
	for i, c := range cells {
		if i > 0 {
			t.w.WriteString("  ")
		}
		w := t.widths[i]
		if n := utf8.RuneCountInString(c); n > w {
			c = string([]rune(c)[:max(w-1, 0)]) + "…"
		} else if i < len(cells)-1 {
			c += strings.Repeat(" ", w-n)
		}
		t.w.WriteString(c)
	}
	t.w.WriteByte('\n')
}

func (t *tableRows) end(n int64) error {
	if t.widths == nil {
		t.flushPreview()
	}
	_, err := fmt.Fprintf(t.w, "(%d %s)\n", n, map[bool]string{true: "row", false: "rows"}[n == 1])
	return err
}
