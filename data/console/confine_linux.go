//go:build linux

package console

import "syscall"

// confine bounds the process's data segment (heap and anonymous mappings:
// what DuckDB and the Go runtime allocate) to limit bytes, so that the
// kernel refuses what DuckDB's own memory_limit does not see, and lowers
// its priority below the server's.
func confine(limit int64) {
	syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: uint64(limit), Max: uint64(limit)})
	syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10)
}
