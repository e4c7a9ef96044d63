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

	"incidents/data"
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
// every command the database is one file again, as DuckDB leaves it. It
// first keeps the state before: a synced copy of the database file
// (FILE.fold) and a hard link to the log (FILE.fold.wal; the checkpoint
// appends to the log, may cut a torn tail off it, and removes it, so the
// marker records the log's length); then it writes the marker
// FILE.folding (with the copy's length and checksum), checkpoints, and
// removes the marker and the copies. A kill at any point leaves either no
// marker (the database file and its log hold the last commit: before the
// fold, or after it) or the marker, which the next open of the file,
// read-only or read-write, honours before DuckDB reads anything: it puts
// the copy and the log back (restoreFold). Either way the state is the
// last commit's.
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

// foldLockWait and foldReaderWait are how long an open waits for another
// process that folds the log, or puts an interrupted fold back: a writer
// as long as it waits for DuckDB's lock (cli.WriterWait), a reader a few
// seconds (a restore takes milliseconds; a fold that takes longer refuses
// the reader, as DuckDB's own lock does while a writer has the file).
const (
	foldLockWait   = 60 * time.Second
	foldReaderWait = 5 * time.Second
)

// fold folds the log of the database at path into the file, db being the
// process's only DuckDB instance on it, open read-write with no
// transaction running. The copy it makes costs a read and a write of the
// whole file (see the README's Scaling for what that is at 100k cases).
// It holds the fold lock; the caller closes the lock it returns (never
// nil) once DuckDB has closed the file: the lock's descriptor is also the
// one the copy reads, and closing any descriptor of the file drops the
// POSIX record locks this process holds on it, DuckDB's included.
//
// When the copy cannot be made (a full disk, a file system without hard
// links), the log is folded as DuckDB does by itself, in place, so that
// the file still holds every commit; the error says so.
func fold(ctx context.Context, db *sql.DB, path string) (*foldLock, error) {
	wal, err := os.Stat(path + ".wal")
	if err != nil || wal.Size() == 0 || !foldLogs {
		return &foldLock{}, nil // no log: nothing to fold
	}
	lk, err := lockForFold(ctx, path, foldLockWait)
	if err != nil {
		return lk, fmt.Errorf("the log of %s was kept as it is (not folded into the file; nothing is lost, keep %s.wal beside it): %w", path, path, err)
	}
	return lk, foldLocked(ctx, db, path, lk.f, wal.Size())
}

func foldLocked(ctx context.Context, db *sql.DB, path string, in *os.File, walSize int64) error {
	tr := trace("fold")
	defer tr("done")
	removeFoldCopies(path)
	kept := keepBeforeFold(in, path, walSize)
	if kept != nil {
		removeFoldCopies(path)
	}
	tr("copy and marker")
	if foldPaused != nil {
		foldPaused()
	}
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		if kept != nil {
			return fmt.Errorf("folding the log into %s: %w (and no copy of the state before could be made: %v)", path, err, kept)
		}
		// The marker stays: the next open puts the state before back.
		return fmt.Errorf("folding the log into %s: %w; the next open of the file puts back the state of the last commit", path, err)
	}
	tr("checkpoint")
	if kept != nil {
		return fmt.Errorf("the log of %s was folded into it in place, unprotected against a kill meanwhile, because no copy of the state before could be made: %w", path, kept)
	}
	// Not synced: a marker that a power cut brings back puts back the
	// state before the fold, which is the same commit.
	if err := os.Remove(path + foldMarker); err != nil {
		return fmt.Errorf("folding the log into %s: %w", path, err)
	}
	removeFoldCopies(path)
	return nil
}

// foldPaused, when set (by a test), runs between a fold's marker and its
// checkpoint.
var foldPaused func()

// keepBeforeFold writes the copy of the file read from in (left open), the
// link and the marker, each synced before the next: the marker records the
// copy's length and CRC-32C, which a restore checks.
func keepBeforeFold(in *os.File, path string, walSize int64) error {
	sum, size, err := copySummed(in, path+foldSuffix)
	if err != nil {
		return err
	}
	if err := os.Link(path+".wal", path+foldWALSuffix); err != nil {
		return err
	}
	m := foldRecord{walSize: walSize, copySize: size, copySum: sum}
	if err := data.WriteFileAtomic(path+foldMarker, []byte(m.String())); err != nil {
		return err
	}
	return syncDir(path)
}

// foldLock is the fold lock of one database file (see lockForFold); its
// descriptor f reads the file.
type foldLock struct{ f *os.File }

// Close releases the lock (nothing when none was taken).
func (l *foldLock) Close() {
	if l != nil && l.f != nil {
		l.f.Close()
	}
}

// foldPath is the name DuckDB gives the database file at path, after which
// it names the log: it follows the symbolic links of a file that exists,
// so the log of a database opened through a link is beside the file the
// link points to, and the fold's copies and marker must be too.
func foldPath(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
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
func recoverFold(ctx context.Context, path string, wait time.Duration) error {
	if _, err := os.Stat(path + foldMarker); err != nil {
		return nil
	}
	// The marker is there: a fold is running in another process (which
	// holds DuckDB's lock of the file), another opener is putting an
	// interrupted one back, or one was interrupted. Take the file's lock
	// to tell them apart, waiting for whoever holds it.
	lk, err := lockForFold(ctx, path, wait)
	if err != nil {
		lk.Close()
		return err
	}
	defer lk.Close()
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
// records (the copy is synced before the marker is written, so only a
// device that lost synced data, or a hand, makes one) is removed instead
// and the file kept as it is.
func restoreFold(path string, rec foldRecord) error {
	if ok, err := copyIntact(path+foldSuffix, rec); err != nil {
		return err
	} else if !ok {
		removeFoldCopies(path)
		return removeSynced(path + foldMarker)
	}
	if exists(path + foldSuffix) {
		if err := restoreLog(path, rec.walSize); err != nil {
			return err
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

// restoreLog puts the link back as the log, cut to the walSize bytes of
// the last commit (the checkpoint appends an entry of its own before it
// removes the log), and removes what the interrupted checkpoint may have
// started beside it. DuckDB may also have cut a torn tail off the log in
// place first (at its first write after replaying one): a link shorter
// than recorded is never padded (DuckDB refuses zeros). Without a link
// (an earlier restore moved it) the log is left as it is.
func restoreLog(path string, walSize int64) error {
	if st, err := os.Stat(path + foldWALSuffix); err == nil {
		if st.Size() > walSize {
			if err := os.Truncate(path+foldWALSuffix, walSize); err != nil {
				return err
			}
		}
		if err := moveOver(path+foldWALSuffix, path+".wal"); err != nil {
			return err
		}
	}
	for _, s := range []string{".wal.checkpoint", ".wal.recovery"} {
		if err := os.Remove(path + s); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

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

// removeFoldCopies removes the copies and a half-written marker that a
// fold left (one that never wrote its marker, or finished, or whose copy a
// restore found spoiled). Only a process holding DuckDB's read-write lock
// of the file, or the fold lock with the marker present, calls it: no
// other fold can be running.
func removeFoldCopies(path string) {
	os.Remove(path + foldSuffix)
	os.Remove(path + foldWALSuffix)
	tmps, _ := filepath.Glob(markerTemps(path))
	for _, t := range tmps {
		os.Remove(t)
	}
}

// markerTemps matches the temporary files data.WriteFileAtomic writes the
// marker through.
func markerTemps(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+foldMarker+".*.tmp")
}

// copySummed copies the file in reads (from its start; in stays open) to
// dst with in's permissions (a clone of its blocks where the file system
// can, else a copy), syncs dst, and returns the CRC-32C and length.
func copySummed(in *os.File, dst string) (uint32, int64, error) {
	st, err := in.Stat()
	if err != nil {
		return 0, 0, err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return 0, 0, err
	}
	defer out.Close()
	if err := out.Chmod(st.Mode().Perm()); err != nil { // past the umask
		return 0, 0, err
	}
	h := crc32.New(castagnoli)
	src := io.NewSectionReader(in, 0, st.Size())
	var n int64
	if cloneFile(out, in) {
		n, err = io.Copy(h, src)
	} else {
		n, err = io.Copy(io.MultiWriter(out, h), src)
	}
	if err != nil {
		return 0, 0, err
	}
	if err := out.Sync(); err != nil {
		return 0, 0, err
	}
	return h.Sum32(), n, out.Close()
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

// UnfoldedLog is the size of the write-ahead log beside the database file
// (0: none): commits a command that wrote could not fold into the file
// (see fold), or that a killed one left. They are part of the database:
// the file alone lacks them until the next command that writes folds them.
func (s *Store) UnfoldedLog() int64 {
	if s.h.path == ":memory:" {
		return 0
	}
	st, err := os.Stat(s.h.path + ".wal")
	if err != nil {
		return 0
	}
	return st.Size()
}
