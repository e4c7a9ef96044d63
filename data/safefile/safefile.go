package safefile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError is a path that names something other than a regular
// file (after symbolic links are followed).
type NotRegularError struct {
	Path string
	Type string // "directory", "named pipe", "character device", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s)", e.Path, e.Type)
}

// TooLargeError is a file over the limit the caller gave.
type TooLargeError struct {
	Path  string
	Size  int64 // the size the file system reports; -1 when the read found it
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: over the %d-byte limit", e.Path, e.Limit)
	}
	return fmt.Sprintf("%s: %d bytes, over the %d-byte limit", e.Path, e.Size, e.Limit)
}

// TypeName names the type of a file mode as a user knows it.
func TypeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// Check stats path (following symbolic links) and returns its info when it
// is a regular file, a *NotRegularError when it is not, or the stat error.
// It never opens the file.
func Check(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Type: TypeName(st.Mode())}
	}
	return st, nil
}

// Read returns the content of the regular file path, at most limit bytes:
// a *NotRegularError for anything else (checked before opening and again
// on the open file), a *TooLargeError for a file over limit (by its size,
// before reading, or by the bytes read), or the error of the file system.
func Read(path string, limit int64) ([]byte, error) {
	st, err := Check(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: st.Size(), Limit: limit}
	}
	// O_NONBLOCK: if path became a FIFO since the check, open returns at
	// once instead of waiting for a writer; it changes nothing for a
	// regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Type: TypeName(st.Mode())}
	}
	// Read as os.ReadFile does, into a slice sized from the stat, so a file
	// read whole costs one allocation; the limit counts the bytes read.
	r := io.LimitReader(f, limit+1)
	b := make([]byte, 0, min(st.Size(), limit)+512)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Size: -1, Limit: limit}
	}
	return b, nil
}
