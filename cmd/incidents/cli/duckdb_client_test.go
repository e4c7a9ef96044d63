package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"incidents/data/store"
)

// duckdbNodeDir holds DuckDB's official Node.js client (@duckdb/node-api,
// a DuckDB built by DuckDB, not the Go binding this project links):
// package.json and package-lock.json pin it, 'make deps-test' installs it
// into node_modules there, and read.mjs is the script it runs.
var duckdbNodeDir = filepath.Join("testdata", "duckdb-node")

// officialDuckDB returns node and the path of read.mjs, failing the test
// (never skipping it) when node or the pinned client is not installed.
func officialDuckDB(t *testing.T) (node, script string) {
	t.Helper()
	return pinnedNode(t, duckdbNodeDir, "@duckdb/node-api", "read.mjs", "DuckDB's Node.js client")
}

// duckdbReport is what read.mjs prints.
type duckdbReport struct {
	Version string `json:"version"`
	Views   map[string]struct {
		Columns []struct{ Name, Type string } `json:"columns"`
		Rows    int64                         `json:"rows"`
	} `json:"views"`
	ParquetRows int64   `json:"parquet_rows"`
	MedianTTR   [][]any `json:"median_ttr_by_class"`
}

// TestOfficialDuckDBClient: a database the commands leave, and its Parquet
// export, read by DuckDB's own Node.js client, read-only: one file (no
// log left beside it), every public view there with the columns and types
// the schema documents (store.Views, `incidents schema`) and the rows this
// project's own connection counts, the export's rows, and a median
// computed by that client equal to ours.
func TestOfficialDuckDBClient(t *testing.T) {
	node, script := officialDuckDB(t)
	db := bundledDB(t)
	exp := filepath.Join(t.TempDir(), "export")
	mustRun(t, "--db", db, "export", "--out", exp)
	if _, err := os.Stat(db + ".wal"); !os.IsNotExist(err) {
		t.Fatalf("a log is left beside the database after the commands (%v): another client would have to replay it", err)
	}

	views := store.Views()
	args := []string{script, db, filepath.Join(exp, "incidents", "**", "*.parquet")}
	for _, v := range views {
		args = append(args, v.Name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = filepath.Dir(script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node read.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	var r duckdbReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("read.mjs report: %v\n%s", err, stdout.String())
	}

	s, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var version string
	if err := s.DB().QueryRow("SELECT version()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if r.Version != version {
		t.Errorf("the Node.js client runs DuckDB %s, this project %s: pin @duckdb/node-api to the same DuckDB in %s/package.json", r.Version, version, duckdbNodeDir)
	}
	for _, v := range views {
		got, ok := r.Views[v.Name]
		if !ok {
			t.Errorf("view %s: not read", v.Name)
			continue
		}
		var want []struct{ Name, Type string }
		for _, c := range v.Columns {
			want = append(want, struct{ Name, Type string }{c.Name, c.Type})
		}
		if !reflect.DeepEqual(got.Columns, want) {
			t.Errorf("view %s: the client reads columns\n%v\nthe schema documents\n%v", v.Name, got.Columns, want)
		}
		var n int64
		if err := s.DB().QueryRow("SELECT count(*) FROM main." + v.SQLName()).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if got.Rows != n || n == 0 && v.Name == store.ViewIncidents {
			t.Errorf("view %s: the client reads %d rows, this project %d", v.Name, got.Rows, n)
		}
	}
	if inc := r.Views[store.ViewIncidents].Rows; r.ParquetRows != inc {
		t.Errorf("the Parquet export holds %d incidents for the client, the database %d", r.ParquetRows, inc)
	}
	rows, err := s.DB().Query("SELECT root_cause_class, median(ttr_minutes) FROM main.incidents WHERE ttr_minutes IS NOT NULL GROUP BY ALL ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ours []string
	for rows.Next() {
		var class any
		var med float64
		if err := rows.Scan(&class, &med); err != nil {
			t.Fatal(err)
		}
		ours = append(ours, fmt.Sprintf("%v=%g", class, med))
	}
	var theirs []string
	for _, row := range r.MedianTTR {
		if len(row) == 2 {
			theirs = append(theirs, fmt.Sprintf("%v=%v", row[0], row[1]))
		}
	}
	if strings.Join(ours, " ") != strings.Join(theirs, " ") || len(ours) < 5 {
		t.Errorf("median TTR by class: the client computes\n%v\nthis project\n%v", theirs, ours)
	}
}
