package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"incidents/data/incident"
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
// then writes the marker FILE.folding (with the copy's checksum),
// checkpoints, and removes the marker and the copies. A kill at any point leaves either no marker (the
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
// It holds the fold lock; the caller calls the unlock it returns (never
// nil) once DuckDB has closed the file.
func fold(ctx context.Context, db *sql.DB, path string) (func(), error) {
	wal, err := os.Stat(path + ".wal")
	if err != nil || wal.Size() == 0 || !foldLogs {
		return func() {}, nil // no log: nothing to fold
	}
	unlock, err := lockForFold(ctx, path)
	if err != nil {
		return unlock, fmt.Errorf("the log of %s was kept as it is (not folded into the file; nothing is lost): %w", path, err)
	}
	return unlock, foldLocked(ctx, db, path, wal.Size())
}

func foldLocked(ctx context.Context, db *sql.DB, path string, walSize int64) error {
	tr := trace("fold")
	defer tr("done")
	removeFoldCopies(path)
	if err := keepBeforeFold(path, walSize); err != nil {
		removeFoldCopies(path)
		return fmt.Errorf("the log of %s was kept as it is (not folded into the file; nothing is lost): %w", path, err)
	}
	tr("copy and marker")
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		// The marker stays: the next open puts the state before back.
		return fmt.Errorf("folding the log into %s: %w; the next open of the file puts back the state of the last commit", path, err)
	}
	tr("checkpoint")
	// Not synced: a marker that a power cut brings back puts back the
	// state before the fold, which is the same commit.
	if err := os.Remove(path + foldMarker); err != nil {
		return fmt.Errorf("folding the log into %s: %w", path, err)
	}
	removeFoldCopies(path)
	return nil
}

// keepBeforeFold writes the copy, the link and the marker. Only the
// marker is synced: it records the copy's length and CRC-32C, and a copy
// that does not match them (a power cut lost some of it) is never put
// back (see restoreFold), so no sync of the whole copy is needed.
func keepBeforeFold(path string, walSize int64) error {
	sum, size, err := copySummed(path, path+foldSuffix)
	if err != nil {
		return err
	}
	if err := os.Link(path+".wal", path+foldWALSuffix); err != nil {
		return err
	}
	tmp := path + foldMarker + ".tmp"
	m := foldRecord{walSize: walSize, copySize: size, copySum: sum}
	if err := writeSynced(tmp, []byte(m.String())); err != nil {
		return err
	}
	if err := os.Rename(tmp, path+foldMarker); err != nil {
		return err
	}
	return syncDir(path)
}

// foldRecord is what the marker holds: the log's length before the fold
// and the copy's length and CRC-32C.
type foldRecord struct {
	walSize, copySize int64
	copySum           uint32
}

func (r foldRecord) String() string {
	return fmt.Sprintf("log %d copy %d crc32c %08x\n", r.walSize, r.copySize, r.copySum)
}

func parseFoldRecord(b []byte) (foldRecord, error) {
	var r foldRecord
	n, err := fmt.Sscanf(strings.TrimSpace(string(b)), "log %d copy %d crc32c %x", &r.walSize, &r.copySize, &r.copySum)
	if err != nil || n != 3 || r.walSize < 0 || r.copySize < 0 {
		return r, fmt.Errorf("the marker holds %q, not a fold record", strings.TrimSpace(string(b)))
	}
	return r, nil
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
	defer unlock()
	if err != nil {
		return err
	}
	m, err := os.ReadFile(path + foldMarker)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // the fold finished, or someone else put it back
	}
	if err != nil {
		return foldError(path, err)
	}
	rec, err := parseFoldRecord(m)
	if err != nil {
		return &incident.Error{Kind: incident.ErrInvalid, File: path + foldMarker, Err: err,
			Msg:  "this is not a marker this version of incidents wrote, so the copy beside it cannot be checked",
			Hint: fmt.Sprintf("with no incidents process running, either remove %s%s (keep %s as it is) or move %s%s over %s and %s%s over %s.wal (put back the state before the interrupted write)", path, foldMarker, path, path, foldSuffix, path, path, foldWALSuffix, path)}
	}
	if err := restoreFold(path, rec); err != nil {
		return foldError(path, err)
	}
	if afterRestore != nil {
		afterRestore()
	}
	return nil
}

// afterRestore and beforeMarkerRemoved, when set (by a test), run while
// the fold lock is held: after a restore, and in one before its last step.
var afterRestore, beforeMarkerRemoved func()

// restoreFold moves the link and the copy back, the log first: a restore
// that is itself interrupted is finished by the next one (every step
// checks what the one before left). A copy that is not the one the marker
// records (only a power cut can make one: the marker is synced, the copy
// is not) is removed instead: the file is then as the checkpoint, which
// syncs it, left it.
func restoreFold(path string, rec foldRecord) error {
	if ok, err := copyIntact(path+foldSuffix, rec); err != nil {
		return err
	} else if !ok {
		removeFoldCopies(path)
		return removeSynced(path + foldMarker)
	}
	if _, err := os.Stat(path + foldSuffix); err == nil {
		if _, err := os.Stat(path + foldWALSuffix); err == nil {
			// The checkpoint appends a marker of its own before it removes
			// the log; the log of the last commit is the first walSize bytes.
			if err := os.Truncate(path+foldWALSuffix, rec.walSize); err != nil {
				return err
			}
			if err := moveOver(path+foldWALSuffix, path+".wal"); err != nil {
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
	if beforeMarkerRemoved != nil {
		beforeMarkerRemoved()
	}
	return removeSynced(path + foldMarker)
}

// moveOver renames src to dst; when dst is src under another name (the
// checkpoint had not removed the log yet), rename does nothing, and src is
// removed instead.
func moveOver(src, dst string) error {
	a, errA := os.Stat(src)
	b, errB := os.Stat(dst)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return os.Remove(src)
	}
	return os.Rename(src, dst)
}

// foldError explains a restore that could not be done (the file system
// refused a step: permissions, a full disk).
func foldError(path string, err error) error {
	return fmt.Errorf("%s: putting back the state before an interrupted fold of its log failed (%w); the copy %s%s and the marker %s%s hold that state: let this user write the file and its directory (or free space) and open the database again", path, err, path, foldSuffix, path, foldMarker)
}

// removeFoldCopies removes what a fold that never wrote its marker, or
// finished, left behind. Only a process holding DuckDB's read-write lock of
// the file calls it (no other fold can be running).
func removeFoldCopies(path string) {
	os.Remove(path + foldSuffix)
	os.Remove(path + foldWALSuffix)
	os.Remove(path + foldMarker + ".tmp")
}

// copySummed copies src to dst (a clone of its blocks where the file
// system can, else a copy) and returns src's CRC-32C and length.
func copySummed(src, dst string) (uint32, int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, 0, err
	}
	h := crc32.New(castagnoli)
	var n int64
	if cloneFile(out, in) {
		n, err = io.Copy(h, in)
	} else {
		n, err = io.Copy(io.MultiWriter(out, h), in)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return h.Sum32(), n, err
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// copyIntact reports whether the copy at path is the one rec records; an
// absent copy counts as intact (a restore already moved it back).
func copyIntact(path string, rec foldRecord) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, f)
	if err != nil {
		return false, err
	}
	return n == rec.copySize && h.Sum32() == rec.copySum, nil
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
