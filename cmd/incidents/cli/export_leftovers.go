package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// An export is written into ".DIR.export-PID-N" beside DIR and renamed
// into place; while it replaces an earlier export, that one waits as
// ".DIR.export-PID-N.old". A process killed in between leaves them behind
// (a signal removes them; SIGKILL cannot), and the next export of the same
// DIR removes them, unless the process that made them still runs.

// exportTempPrefix is the name prefix of the temporary directories of an
// export to out (an absolute path).
func exportTempPrefix(out string) string { return "." + filepath.Base(out) + ".export-" }

// leftover is a temporary directory of an earlier export to the same DIR.
type leftover struct {
	name string
	old  bool // a previous export moved aside (".old")
}

// exportLeftovers lists the temporary directories beside out whose export
// no longer runs: the PID in the name is gone, or the name has none (as
// earlier versions wrote them).
func exportLeftovers(out string) ([]leftover, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	prefix := exportTempPrefix(abs)
	entries, err := os.ReadDir(filepath.Dir(abs))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var found []leftover
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		rest, old := strings.CutSuffix(rest, ".old")
		pid, random, hasPID := strings.Cut(rest, "-")
		if !allDigits(pid) || hasPID && !allDigits(random) {
			continue // not a name an export makes
		}
		if hasPID {
			if n, err := strconv.Atoi(pid); err == nil && processAlive(n) {
				continue // an export running now
			}
		}
		found = append(found, leftover{name: e.Name(), old: old})
	}
	return found, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cleanLeftovers removes what stopped exports to out left beside it and
// says so. When out itself is missing and a stopped export had moved the
// previous one aside, that one is put back first: nothing the user had is
// lost.
func cleanLeftovers(app *App, out string) error {
	found, err := exportLeftovers(out)
	if err != nil || len(found) == 0 {
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	parent := filepath.Dir(abs)
	if _, err := os.Lstat(abs); os.IsNotExist(err) {
		for _, l := range found {
			if l.old {
				if err := os.Rename(filepath.Join(parent, l.name), abs); err != nil {
					return fmt.Errorf("restoring the previous export %s from %s: %w", out, l.name, err)
				}
				fmt.Fprintf(app.Stderr, "export: put back the previous export in %s, which a stopped export had moved to %s\n", out, l.name)
				break
			}
		}
	}
	var removed []string
	for _, l := range found {
		if _, err := os.Lstat(filepath.Join(parent, l.name)); err != nil {
			continue // restored above
		}
		if err := os.RemoveAll(filepath.Join(parent, l.name)); err != nil {
			return fmt.Errorf("removing %s, left by a stopped export: %w", l.name, err)
		}
		removed = append(removed, l.name)
	}
	if len(removed) > 0 {
		fmt.Fprintf(app.Stderr, "export: removed %s left beside %s by an export that was stopped: %s\n",
			plural(len(removed), "temporary directory", "temporary directories"), out, strings.Join(removed, ", "))
	}
	return nil
}
