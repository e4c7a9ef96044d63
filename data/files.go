package data

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes b to path through a temporary file in the same
// directory, synced and renamed over path, so that a reader or a crash sees
// the old file or the new one, never a part. The file gets mode 0644.
func WriteFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return folderError(path, dir, err)
	}
	tmp := f.Name()
	err = f.Chmod(0o644)
	if err == nil {
		_, err = f.Write(b)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// folderError says why a file cannot be created in dir, in the words of
// the folder rather than of the temporary file the write goes through.
func folderError(path, dir string, err error) error {
	// The first folder of dir, from its root, that is missing or a file.
	for d := dir; ; d = filepath.Dir(d) {
		st, serr := os.Stat(d)
		switch {
		case serr == nil && !st.IsDir():
			return &writeError{fmt.Sprintf("cannot write %s: %s is a file, not a folder", path, d), err}
		case serr == nil && d != dir:
			return &writeError{fmt.Sprintf("cannot write %s: the folder %s does not exist; create it first or write elsewhere", path, dir), err}
		}
		if serr == nil || d == filepath.Dir(d) {
			break
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return &writeError{fmt.Sprintf("cannot write %s: no permission to create files in %s", path, dir), err}
	}
	return fmt.Errorf("writing %s: %w", path, err)
}

// writeError says in the user's words why a file cannot be written; the
// system's error (naming the temporary file) stays behind it.
type writeError struct {
	msg string
	err error
}

func (e *writeError) Error() string { return e.msg }
func (e *writeError) Unwrap() error { return e.err }
