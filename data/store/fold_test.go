package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"incidents/data/incident"
)

// keepBefore runs the first steps of a fold of path (copy, link, marker),
// as a fold killed right after them leaves the files.
func keepBefore(t *testing.T, path string, walSize int64) {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := keepBeforeFold(in, path, walSize); err != nil {
		t.Fatal(err)
	}
}

// noFold leaves the log of every read-write close for one test.
func noFold(t *testing.T) {
	t.Helper()
	foldLogs = false
	t.Cleanup(func() { foldLogs = true })
}

// loggedDB writes a database with cases in the file and a last commit
// only in its log (no fold at that close) and returns its path and state.
func loggedDB(t *testing.T) (string, string) {
	t.Helper()
	s, path := openTemp(t)
	var incs []*incident.Incident
	for i := 0; i < 200; i++ {
		incs = append(incs, sample(fmt.Sprintf("F-%03d", i)))
	}
	mustUpsert(t, s, incs...)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() < 1<<20 || exists(path+".wal") {
		t.Fatalf("the first write was not folded into the file (%v)", err)
	}
	noFold(t)
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, inc := range incs[:50] {
		inc.Title += " (updated)"
	}
	mustUpsert(t, s, incs[:50]...)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path + ".wal"); err != nil || st.Size() == 0 {
		t.Fatalf("the write left no log to fold (%v): DuckDB checkpointed by itself", err)
	}
	return path, stateOf(t, path, true)
}

// stateOf opens path (read-only or read-write) and dumps every table.
func stateOf(t *testing.T, path string, readOnly bool) string {
	t.Helper()
	s, err := Open(context.Background(), path, Options{ReadOnly: readOnly})
	if err != nil {
		t.Fatalf("open (read-only %v): %v", readOnly, err)
	}
	defer s.Close()
	return dump(t, s)
}

// tear overwrites every block of the database file after its headers, as
// a checkpoint killed while rewriting blocks in place would leave some.
func tear(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	const headers = 3 * 4096
	if err := os.WriteFile(path+".torn", bytes.Repeat([]byte{0xAB}, int(st.Size())-headers), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, _ := os.ReadFile(path + ".torn")
	os.Remove(path + ".torn")
	if _, err := f.WriteAt(b, headers); err != nil {
		t.Fatal(err)
	}
}

// checkpointAlone checkpoints path as DuckDB does by default (in place).
func checkpointAlone(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// TestFoldInterrupted leaves the files as a fold killed at each of its
// steps (or a restore killed at each of its own) would, and opens them:
// read-only and read-write alike must see the state of the last commit,
// and no marker may be left.
func TestFoldInterrupted(t *testing.T) {
	for _, c := range []struct {
		name string
		at   func(t *testing.T, path string, walSize int64)
		// copiesStay: a read-only open leaves the copies (no marker, so
		// no fold half done: only a read-write open removes them).
		copiesStay bool
	}{
		{"before the marker", func(t *testing.T, path string, walSize int64) {
			in, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if _, _, err := copySummed(in, path+foldSuffix); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(path+".wal", path+foldWALSuffix); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"checkpoint tore blocks", func(t *testing.T, path string, walSize int64) {
			keepBefore(t, path, walSize)
			appendTo(t, path+".wal", bytes.Repeat([]byte{7}, 300)) // the checkpoint's own marker
			tear(t, path)
		}, false},
		{"checkpoint done, marker left", func(t *testing.T, path string, walSize int64) {
			keepBefore(t, path, walSize)
			checkpointAlone(t, path)
			if exists(path + ".wal") {
				t.Fatal("the checkpoint left its log")
			}
		}, false},
		{"checkpoint done, copy lost to a power cut", func(t *testing.T, path string, walSize int64) {
			keepBefore(t, path, walSize)
			checkpointAlone(t, path)
			tear(t, path+foldSuffix) // the copy is never synced: only its checksum tells
		}, false},
		{"restore moved the log back", func(t *testing.T, path string, walSize int64) {
			keepBefore(t, path, walSize)
			tear(t, path)
			os.Remove(path + ".wal")
			if err := os.Rename(path+foldWALSuffix, path+".wal"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"restore moved both back", func(t *testing.T, path string, walSize int64) {
			keepBefore(t, path, walSize)
			if err := moveOver(path+foldWALSuffix, path+".wal"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+foldSuffix, path); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, want := loggedDB(t)
			st, err := os.Stat(path + ".wal")
			if err != nil {
				t.Fatal(err)
			}
			c.at(t, path, st.Size())
			if got := stateOf(t, path, true); got != want {
				t.Fatalf("read-only open after the interruption: state differs from the last commit's\n%s", firstDiff(want, got))
			}
			if exists(path + foldMarker) {
				t.Fatal("the marker is still there after a read-only open")
			}
			for _, f := range []string{foldSuffix, foldWALSuffix} {
				if exists(path+f) != c.copiesStay {
					t.Fatalf("%s present %v after a read-only open, want %v", path+f, exists(path+f), c.copiesStay)
				}
			}
			if got := stateOf(t, path, false); got != want {
				t.Fatalf("read-write open after the interruption: state differs\n%s", firstDiff(want, got))
			}
			for _, s := range []string{foldSuffix, foldWALSuffix, foldMarker} {
				if exists(path + s) {
					t.Fatalf("%s left after a read-write open", path+s)
				}
			}
			if tmps, _ := filepath.Glob(markerTemps(path)); len(tmps) > 0 {
				t.Fatalf("%v left after a read-write open", tmps)
			}
		})
	}
}

// TestFoldOnClose: a read-write close folds the log and leaves one file.
func TestFoldOnClose(t *testing.T) {
	path, want := loggedDB(t) // closed with folding off: the log stays
	foldLogs = true
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close with a fold: %v", err)
	}
	for _, f := range []string{".wal", foldSuffix, foldWALSuffix, foldMarker} {
		if exists(path + f) {
			t.Errorf("%s is left after the fold", path+f)
		}
	}
	if got := stateOf(t, path, true); got != want {
		t.Fatalf("after the fold the state differs\n%s", firstDiff(want, got))
	}
}

// TestNoCheckpointByDuckDB: a read-write store turns DuckDB's own
// checkpoints off (at commit and at shutdown), so that no block the
// file's header points to is rewritten outside a fold.
func TestNoCheckpointByDuckDB(t *testing.T) {
	s, _ := openTemp(t)
	var threshold string
	if err := s.DB().QueryRow(`SELECT current_setting('checkpoint_threshold')`).Scan(&threshold); err != nil {
		t.Fatal(err)
	}
	if threshold == "16.0 MiB" || threshold == "" {
		t.Fatalf("checkpoint_threshold is DuckDB's default (%q): commits would checkpoint in place", threshold)
	}
	// The shutdown checkpoint: loggedDB fails when a close checkpoints.
	loggedDB(t)
}

// firstDiff shows the first line where two dumps differ.
func firstDiff(a, b string) string {
	al, bl := bytes.Split([]byte(a), []byte("\n")), bytes.Split([]byte(b), []byte("\n"))
	for i := 0; i < len(al) && i < len(bl); i++ {
		if !bytes.Equal(al[i], bl[i]) {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

func TestFoldRecord(t *testing.T) {
	r := foldRecord{walSize: 1219262, copySize: 3420160, copySum: 0xdeadbeef}
	got, err := parseFoldRecord([]byte(r.String()))
	if err != nil || got != r {
		t.Fatalf("round trip of %q: %+v, %v", r.String(), got, err)
	}
	for _, bad := range []string{"", "1219262", "log -1 copy 5 crc32c 00000000", "log 1 copy 2", "log x copy 2 crc32c 1"} {
		if _, err := parseFoldRecord([]byte(bad)); err == nil {
			t.Errorf("parseFoldRecord(%q) accepted", bad)
		}
	}
}
