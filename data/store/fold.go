package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Folding the write-ahead log into the database file.
//
// DuckDB commits by appending to the write-ahead log (FILE.wal); a
// checkpoint later writes what the log holds into the database file and
// removes the log. A checkpoint rewrites in place some blocks that the
// file's current header still points to (metadata blocks shared by
// successive checkpoints), and the kernel stops copying a block into the
// file when the process is killed: a kill in that moment leaves a block
// half old and half new, and DuckDB refuses the whole file ("Corrupt
// database file: computed checksum … does not match"). Appending to the
// log has no such moment: a torn tail of the log is a commit that never
// happened.
//
// So the store never lets DuckDB checkpoint by itself (not at a commit,
// not at shutdown: see noCheckpointDSN and noShutdownCheckpoint) and folds
// the log itself when a read-write Store closes with a log, so that after
// every command the database is one file again, as DuckDB leaves it: it
// first keeps the state before — a copy of the database file
// (FILE.fold) and a hard link to the log (FILE.fold.wal; the checkpoint
// removes FILE.wal and only appends to it before) with the log's length —
// then writes the marker FILE.folding, checkpoints, and removes the
// marker and the copies. A kill at any point leaves either no marker (the
// database file and its log hold the last commit: before the fold, or
// after it) or the marker, which the next open of the file, read-only or
// read-write, honours before DuckDB reads anything: it puts the copy and
// the log back (restoreFold). Either way the state is the last commit's.
const (
	foldSuffix    = ".fold"     // the copy of the database file
	foldWALSuffix = ".fold.wal" // the hard link to the log
	foldMarker    = ".folding"  // present while a fold may be half done
)

// foldLogs is whether closing a read-write store folds its log (false
// only in tests that need a database whose last commit is in its log).
var foldLogs = true

// noCheckpointDSN are the DSN settings of a read-write open: no checkpoint
// at a commit (DuckDB checkpoints once the log would pass the threshold).
const noCheckpointDSN = "checkpoint_threshold=1000000GB"

// noShutdownCheckpoint turns off DuckDB's checkpoint when the database
// closes (a setting of the database instance, not of one connection).
const noShutdownCheckpoint = "PRAGMA disable_checkpoint_on_shutdown"

// foldLockWait is how long an open waits for another process that folds
// the log, or puts an interrupted fold back, to finish.
const foldLockWait = 2 * time.Minute

// fold folds the log of the database at path into the file, db being the
// process's only DuckDB instance on it, open read-write with no
// transaction running. The copy it makes costs a read and a write of the
// whole file (see the README's Scaling for what that is at 100k cases).
func fold(ctx context.Context, db *sql.DB, path string) error {
	wal, err := os.Stat(path + ".wal")
	if err != nil || wal.Size() == 0 || !foldLogs {
		return nil // no log: nothing to fold
	}
	removeFoldCopies(path)
	if err := keepBeforeFold(path, wal.Size()); err != nil {
		removeFoldCopies(path)
		return fmt.Errorf("the log of %s was kept as it is (not folded into the file; nothing is lost): %w", path, err)
	}
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		// The marker stays: the next open puts the state before back.
		return fmt.Errorf("folding the log into %s: %w; the next open of the file puts back the state of the last commit", path, err)
	}
	if err := removeSynced(path + foldMarker); err != nil {
		return fmt.Errorf("folding the log into %s: %w", path, err)
	}
	removeFoldCopies(path)
	return nil
}

// keepBeforeFold writes the copy, the link and the marker, each durable
// before the next.
func keepBeforeFold(path string, walSize int64) error {
	if err := copySynced(path, path+foldSuffix); err != nil {
		return err
	}
	if err := os.Link(path+".wal", path+foldWALSuffix); err != nil {
		return err
	}
	tmp := path + foldMarker + ".tmp"
	if err := writeSynced(tmp, []byte(strconv.FormatInt(walSize, 10)+"\n")); err != nil {
		return err
	}
	if err := os.Rename(tmp, path+foldMarker); err != nil {
		return err
	}
	return syncDir(path)
}

// recoverFold puts back the state before a fold that was interrupted (see
// the top of this file). It runs before DuckDB opens the file, for opens
// read-only and read-write; without a marker it only looks for it.
func recoverFold(ctx context.Context, path string) error {
	if _, err := os.Stat(path + foldMarker); err != nil {
		return nil
	}
	// The marker is there: a fold is running in another process (which
	// holds DuckDB's lock of the file), another opener is putting an
	// interrupted one back, or one was interrupted. Take the file's lock
	// to tell them apart, waiting for whoever holds it.
	unlock, err := lockForFold(ctx, path)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := os.ReadFile(path + foldMarker)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // the fold finished, or someone else put it back
	}
	if err != nil {
		return foldError(path, err)
	}
	walSize, err := strconv.ParseInt(strings.TrimSpace(string(m)), 10, 64)
	if err != nil || walSize < 0 {
		return foldError(path, fmt.Errorf("%s%s holds %q, not a log length", path, foldMarker, strings.TrimSpace(string(m))))
	}
	if err := restoreFold(path, walSize); err != nil {
		return foldError(path, err)
	}
	return nil
}

// restoreFold moves the link and the copy back, the log first: a restore
// that is itself interrupted is finished by the next one (every step
// checks what the one before left).
func restoreFold(path string, walSize int64) error {
	if _, err := os.Stat(path + foldSuffix); err == nil {
		if _, err := os.Stat(path + foldWALSuffix); err == nil {
			// The checkpoint appends a marker of its own before it removes
			// the log; the log of the last commit is the first walSize bytes.
			if err := os.Truncate(path+foldWALSuffix, walSize); err != nil {
				return err
			}
			if err := os.Rename(path+foldWALSuffix, path+".wal"); err != nil {
				return err
			}
		}
		// What the interrupted checkpoint may have started beside the log.
		for _, s := range []string{".wal.checkpoint", ".wal.recovery"} {
			if err := os.Remove(path + s); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		if err := os.Rename(path+foldSuffix, path); err != nil {
			return err
		}
		if err := syncDir(path); err != nil {
			return err
		}
	}
	return removeSynced(path + foldMarker)
}

func foldError(path string, err error) error {
	return fmt.Errorf("%s: putting back the state before an interrupted fold of its log failed (%w); the copy %s%s and the marker %s%s hold it: make the directory writable and open the database again", path, err, path, foldSuffix, path, foldMarker)
}

// removeFoldCopies removes what a fold that never wrote its marker, or
// finished, left behind. Only a process holding DuckDB's read-write lock of
// the file calls it (no other fold can be running).
func removeFoldCopies(path string) {
	os.Remove(path + foldSuffix)
	os.Remove(path + foldWALSuffix)
	os.Remove(path + foldMarker + ".tmp")
}

// copySynced copies src to dst (a clone of its blocks where the file
// system can, else a copy in the kernel) and syncs dst.
func copySynced(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if !cloneFile(out, in) {
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// removeSynced removes path (absent is fine) and syncs its directory.
func removeSynced(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(path)
}

// syncDir makes the renames and removals in path's directory durable.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
