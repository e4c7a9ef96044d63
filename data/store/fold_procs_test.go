//go:build unix

package store

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestFoldRestoreLetsOthersOpen: processes that put a killed fold back
// hold the fold lock a while (a directory sync under load takes hundreds
// of milliseconds). A pauses before removing the marker, after it moved
// the copy back; B, finding the marker, takes the lock of the file now in
// place and holds it after its own (empty) restore; A then opens the
// database while B holds the lock. The fold lock must not be one DuckDB's
// own lock collides with: both open, and both see the last commit.
func TestFoldRestoreLetsOthersOpen(t *testing.T) {
	path, want := loggedDB(t)
	wantSum := fmt.Sprintf("state %x", sha256.Sum256([]byte(want)))
	st, err := os.Stat(path + ".wal")
	if err != nil {
		t.Fatal(err)
	}
	keepBefore(t, path, st.Size())
	tear(t, path)
	child := func(env ...string) (*exec.Cmd, *strings.Builder) {
		var out strings.Builder
		cmd := exec.Command(os.Args[0], "-test.run=^TestFoldChild$", "-test.count=1")
		cmd.Env = append(append(os.Environ(), "STORE_FOLD_OP=state", "STORE_FOLD_DB="+path), env...)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	a, outA := child("STORE_FOLD_PAUSE=500ms")
	for deadline := time.Now().Add(30 * time.Second); exists(path + foldSuffix); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first opener never moved the copy back")
		}
	}
	b, outB := child("STORE_FOLD_HOLD=1500ms")
	errA, errB := a.Wait(), b.Wait()
	if errA != nil || strings.TrimSpace(outA.String()) != wantSum {
		t.Fatalf("the opener that restored: %v %s", errA, outA.String())
	}
	if errB != nil || strings.TrimSpace(outB.String()) != wantSum {
		t.Fatalf("the opener that came during the restore: %v %s", errB, outB.String())
	}
	if exists(path + foldMarker) {
		t.Fatal("the marker is left")
	}
}
