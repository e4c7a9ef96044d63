package console

import (
	"bytes"
	"context"
	"database/sql"
	"testing"
)

// TestWriteRowsTypes: values whose Go form loses their SQL type print as
// DuckDB prints them, in CSV and JSON alike.
func TestWriteRowsTypes(t *testing.T) {
	db := openDB(t)
	const q = `SELECT INTERVAL 90 MINUTE iv, INTERVAL '1 year 2 months 3 days 00:00:01.5' iv2,
		'00000000-0000-0000-0000-000000000041'::UUID u, TIME '10:00' t, MAP {'a': 1} m,
		TIMESTAMP '2024-01-01 00:00' ts, DATE '2024-02-03' d`
	for format, want := range map[string]string{
		FormatCSV:  "iv,iv2,u,t,m,ts,d\n01:30:00,1 year 2 months 3 days 00:00:01.5,00000000-0000-0000-0000-000000000041,10:00:00,\"{\"\"a\"\":1}\",2024-01-01T00:00:00Z,2024-02-03\n",
		FormatJSON: `{"iv":"01:30:00","iv2":"1 year 2 months 3 days 00:00:01.5","u":"00000000-0000-0000-0000-000000000041","t":"10:00:00","m":{"a":1},"ts":"2024-01-01T00:00:00Z","d":"2024-02-03"}` + "\n",
	} {
		rows, err := db.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, err = WriteRows(&b, rows, format)
		rows.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%s:\n got %q\nwant %q", format, b.String(), want)
		}
	}
}

// TestWriteRowsUnions: a UNION prints as its value, as DuckDB prints it,
// not as the driver's Go struct ("{1 k}"), also inside a list.
func TestWriteRowsUnions(t *testing.T) {
	db := openDB(t)
	const q = `SELECT union_value(k := 1) un, [union_value(s := 'a')] ul`
	for format, want := range map[string]string{
		FormatCSV:   "un,ul\n1,\"[\"\"a\"\"]\"\n",
		FormatJSON:  `{"un":1,"ul":["a"]}` + "\n",
		FormatTable: "un  ul\n--  -----\n1   [\"a\"]\n(1 row)\n",
	} {
		if got := writeRows(t, db, q, format); got != want {
			t.Errorf("%s:\n got %q\nwant %q", format, got, want)
		}
	}
}

// TestWriteRowsInfinities: the infinite dates and timestamps print as
// DuckDB names them, not as the far dates the driver makes of them
// (year 5881580, -290308).
func TestWriteRowsInfinities(t *testing.T) {
	db := openDB(t)
	const q = `SELECT 'infinity'::DATE di, '-infinity'::DATE dn, 'infinity'::TIMESTAMP ti, '-infinity'::TIMESTAMPTZ tn,
		DATE '2024-02-03' d, TIMESTAMP '2024-01-01 00:00' ts, ['infinity'::DATE] l`
	for format, want := range map[string]string{
		FormatCSV:  "di,dn,ti,tn,d,ts,l\ninfinity,-infinity,infinity,-infinity,2024-02-03,2024-01-01T00:00:00Z,\"[\"\"infinity\"\"]\"\n",
		FormatJSON: `{"di":"infinity","dn":"-infinity","ti":"infinity","tn":"-infinity","d":"2024-02-03","ts":"2024-01-01T00:00:00Z","l":["infinity"]}` + "\n",
	} {
		if got := writeRows(t, db, q, format); got != want {
			t.Errorf("%s:\n got %q\nwant %q", format, got, want)
		}
	}
}

// TestWriteRowsControlCharacters: the table and Markdown formats, meant
// for a terminal, neither pass a terminal escape through nor let a tab or
// newline break their columns; CSV and JSON keep the text as it is.
func TestWriteRowsControlCharacters(t *testing.T) {
	db := openDB(t)
	const q = `SELECT chr(27) || '[2Jx' AS e, 'a' || chr(9) || 'b' || chr(13) || chr(10) || 'c' AS w`
	for format, want := range map[string]string{
		FormatTable:    "e      w\n-----  ------\n [2Jx  a b  c\n(1 row)\n",
		FormatMarkdown: "| e | w |\n| --- | --- |\n|  [2Jx | a b  c |\n",
		FormatCSV:      "e,w\n\x1b[2Jx,\"a\tb\r\nc\"\n",
		FormatJSON:     `{"e":"\u001b[2Jx","w":"a\tb\r\nc"}` + "\n",
	} {
		if got := writeRows(t, db, q, format); got != want {
			t.Errorf("%s:\n got %q\nwant %q", format, got, want)
		}
	}
}

func writeRows(t *testing.T, db *sql.DB, q, format string) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b bytes.Buffer
	if _, err := WriteRows(&b, rows, format); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWriteRowsJSONDuplicateNames: JSON lines name each value once, so a
// reader that keeps the last of equal keys loses none: a repeated column
// name gets _1, _2, … as DuckDB names repeated columns, skipping names the
// result already has.
func TestWriteRowsJSONDuplicateNames(t *testing.T) {
	db := openDB(t)
	const q = `SELECT 1 a, 2 a, 3 a_1, 4 a`
	want := `{"a":1,"a_2":2,"a_1":3,"a_3":4}` + "\n"
	if got := writeRows(t, db, q, FormatJSON); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got, want := writeRows(t, db, q, FormatCSV), "a,a,a_1,a\n1,2,3,4\n"; got != want {
		t.Errorf("CSV keeps the names: got %q, want %q", got, want)
	}
}
