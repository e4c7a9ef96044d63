package store

// Tests of the fold (fold.go) against other processes, the log DuckDB
// cuts in place, the file's mode and symbolic links: each failed on the
// first version of the fold.

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// TestFoldChild is the other process of the fold tests (it does nothing
// unless STORE_FOLD_OP is set): "probe" tries to open the file read-only in
// DuckDB (prints "opened" or the error); "open" opens it read-only through
// the store, as serve's reload or any reader does; "state" does too and
// prints a digest of its state, keeping the fold lock STORE_FOLD_HOLD
// after a restore and pausing STORE_FOLD_PAUSE before a restore's last
// step.
func TestFoldChild(t *testing.T) {
	path := os.Getenv("STORE_FOLD_DB")
	switch os.Getenv("STORE_FOLD_OP") {
	case "":
		return
	case "state":
		if d, err := time.ParseDuration(os.Getenv("STORE_FOLD_HOLD")); err == nil {
			afterRestore = func() { time.Sleep(d) }
		}
		if d, err := time.ParseDuration(os.Getenv("STORE_FOLD_PAUSE")); err == nil {
			beforeMarkerRemoved = func() { time.Sleep(d) }
		}
		s, err := Open(context.Background(), path, Options{ReadOnly: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Printf("state %x\n", sha256.Sum256([]byte(dump(t, s))))
		s.Close()
		os.Exit(0) // the digest alone on stdout
	case "probe":
		db, err := sql.Open("duckdb", path+"?access_mode=read_only")
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err != nil {
			os.Stdout.WriteString("refused: " + err.Error() + "\n")
			return
		}
		os.Stdout.WriteString("opened\n")
	case "open":
		s, err := Open(context.Background(), path, Options{ReadOnly: true})
		if err != nil {
			os.Stdout.WriteString("refused: " + err.Error() + "\n")
			return
		}
		s.Close()
		os.Stdout.WriteString("opened\n")
	}
}

func foldChild(t *testing.T, op, path string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFoldChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STORE_FOLD_OP="+op, "STORE_FOLD_DB="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child %s: %v\n%s", op, err, out)
	}
	return string(out)
}

// TestFoldKeepsLock: while a read-write Store has the file open, no
// other process may open it — during the fold too. The copy reads the file
// through a descriptor, and closing any descriptor of a file drops every
// POSIX record lock the process holds on it, DuckDB's write lock included:
// the fold's descriptor is closed only after DuckDB closed the file.
func TestFoldKeepsLock(t *testing.T) {
	path, _ := loggedDB(t)
	foldLogs = true
	w, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if out := foldChild(t, "probe", path); !strings.HasPrefix(out, "refused") {
		t.Fatalf("before the fold another process opened the file a writer holds: %s", out)
	}
	var out string
	foldPaused = func() { out = foldChild(t, "probe", path) }
	defer func() { foldPaused = nil }()
	if err := w.Close(); err != nil { // the fold, paused before its CHECKPOINT
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "refused") {
		t.Fatalf("during the fold (after its copy, before its CHECKPOINT) another process opened the file the writer still holds: %s", strings.TrimSpace(out))
	}
}

// TestFoldReaderDuringFold: a reader that comes while a fold runs
// (serve retrying its reload, any read-only command) finds the marker; it
// must not put the fold back under the running checkpoint (which would
// then remove the log it put back, and the commits only in it): it waits
// for the fold's lock or is refused, and the state stays the last commit's.
func TestFoldReaderDuringFold(t *testing.T) {
	path, want := loggedDB(t)
	foldLogs = true
	w, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	foldPaused = func() {
		// a reader that tries while the fold runs; with the writer's lock
		// kept it waits for the fold (foldLockWait) and finds it finished
		var out strings.Builder
		cmd := exec.Command(os.Args[0], "-test.run=^TestFoldChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "STORE_FOLD_OP=open", "STORE_FOLD_DB="+path)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Wait(); t.Logf("reader during the fold: %s", strings.TrimSpace(out.String())) })
		time.Sleep(time.Second) // the reader reaches the marker while the fold is paused
	}
	defer func() { foldPaused = nil }()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := stateOf(t, path, true); got != want {
		t.Fatalf("after a fold with a reader during it the state is not the last commit's:\n%s", firstDiff(want, got))
	}
}

// TestFoldTornLogTail: a command killed while its commit appended to
// the log leaves a torn tail there (a commit that never happened); DuckDB
// replays up to it and truncates the log IN PLACE at its next write to it
// (WALInitState::UNINITIALIZED_REQUIRES_TRUNCATE). When the next read-write
// store writes nothing, that first write is the fold's own CHECKPOINT
// (WALStartCheckpoint writes its checkpoint entry), which cuts the hard link
// FILE.fold.wal too. A fold interrupted after that is put back with
// os.Truncate(FILE.fold.wal, walSize) — walSize being the torn length, past
// the end — which pads the log with zeros, and DuckDB refuses a log entry of
// zeros (checksum mismatch: an IOException, not a torn tail).
func TestFoldTornLogTail(t *testing.T) {
	path, want := loggedDB(t)
	// a torn commit: an entry header promising 4096 bytes, 200 of them written
	torn := make([]byte, 16+200)
	torn[0], torn[1] = 0x00, 0x10 // size 4096, little-endian
	for i := 16; i < len(torn); i++ {
		torn[i] = 0x5A
	}
	appendTo(t, path+".wal", torn)
	if got := stateOf(t, path, true); got != want {
		t.Fatalf("the torn tail is not ignored by a read-only open:\n%s", firstDiff(want, got))
	}
	foldLogs = true
	w, err := Open(context.Background(), path, Options{}) // writes nothing
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path + ".wal")
	if err != nil {
		t.Fatal(err)
	}
	// fold as far as its CHECKPOINT, then stop as a kill would (the marker stays)
	held, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := keepBeforeFold(held, path, st.Size()); err != nil {
		t.Fatal(err)
	}
	if _, err := w.h.db.Exec("CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	if l, err := os.Stat(path + foldWALSuffix); err == nil {
		t.Logf("log length recorded %d, link length after the checkpoint %d", st.Size(), l.Size())
	}
	foldLogs = false // the killed process removes nothing
	w.Close()
	foldLogs = true
	if got := stateOf(t, path, true); got != want {
		t.Fatalf("after the fold was put back the state is not the last commit's:\n%s", firstDiff(want, got))
	}
}

// TestFoldKeepsMode: a database the user made private (0600) is
// copied to FILE.fold with mode 0644 for the length of every fold, and a
// fold put back leaves FILE itself 0644: readable by every local user.
func TestFoldKeepsMode(t *testing.T) {
	path, _ := loggedDB(t)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path + ".wal")
	if err != nil {
		t.Fatal(err)
	}
	keepBefore(t, path, st.Size())
	if fi, err := os.Stat(path + foldSuffix); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy of a 0600 database is %v", fi.Mode().Perm())
	}
	stateOf(t, path, true) // puts the fold back
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("a 0600 database is %v after a fold was put back (%v)", fi.Mode().Perm(), err)
	}
}

// TestFoldSymlink: --db naming a symbolic link to the database.
// DuckDB follows the link and keeps its log beside the target
// (real.duckdb.wal), while fold looks for link.duckdb.wal: it finds none and
// never folds, and with DuckDB's own checkpoints off every commit made
// through the link stays in the log for good (a copy of the file alone has
// none of them).
func TestFoldSymlink(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.duckdb"), filepath.Join(dir, "link.duckdb")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"F", "G"} { // creates the file, then writes to it
		s, err := Open(context.Background(), link, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var incs []*incident.Incident
		for i := 0; i < 100; i++ {
			incs = append(incs, sample(fmt.Sprintf("%s-%03d", prefix, i)))
		}
		mustUpsert(t, s, incs...)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	for _, wal := range []string{real + ".wal", link + ".wal"} {
		if exists(wal) {
			t.Fatalf("a read-write close through a symbolic link left the log %s unfolded (files: %v)", wal, names)
		}
	}
}
