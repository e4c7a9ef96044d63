package data_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, body := range []string{"first", "second"} {
		if err := data.WriteFileAtomic(path, []byte(body)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != body {
			t.Fatalf("read back %q (%v), want %q", got, err, body)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// The error speaks of the folder, not of the temporary file.
	err := data.WriteFileAtomic(filepath.Join(dir, "missing", "x"), []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "the folder "+filepath.Join(dir, "missing")+" does not exist") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("writing into a missing directory: %v", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the system's error is not behind it: %v", err)
	}
	for _, under := range []string{filepath.Join(path, "x"), filepath.Join(path, "sub", "x")} {
		err = data.WriteFileAtomic(under, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), path+" is a file, not a folder") {
			t.Errorf("writing %s: %v", under, err)
		}
	}
}
