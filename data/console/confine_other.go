//go:build !linux

package console

// confine does nothing where the kernel limit is not known to hold: the
// worker still runs with DuckDB's memory_limit and is killed at the time
// limit.
func confine(limit int64) {}
