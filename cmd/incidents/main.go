package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"

	"incidents/cmd/incidents/cli"
	"incidents/data/incident"
)

func main() {
	ctx, stop := notifyContext(context.Background())
	stopProfile := startProfile(os.Getenv("INCIDENTS_CPUPROFILE"))
	err := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	in := interruptedBy(ctx)
	stop()
	os.Exit(exitCode(err, in))
}

// startProfile writes a CPU profile of the whole command to path (for
// 'go tool pprof'); an empty path profiles nothing. Its samples on
// runtime.asyncPreempt (about an eighth of a recompute's) are the
// profiler's, not the command's: the CPU time is the same with async
// preemption off (README, Scaling).
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "incidents: INCIDENTS_CPUPROFILE:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// exitCode is the one place exit codes are chosen: 0 success, 2 usage, 3 bad
// input, 4 a database refused (locked, newer schema, failed check), 1 other;
// a command a signal stopped before it finished exits 128 plus the signal's
// number (130 SIGINT, 143 SIGTERM), whatever error the stop gave. A command
// that finished (serve and mcp shut down cleanly) exits 0.
func exitCode(err error, in *Interrupted) int {
	if err == nil {
		return 0
	}
	if in != nil {
		fmt.Fprintln(os.Stderr, "incidents:", stoppedMessage(in, err))
		return in.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "incidents:", err)
	var usage *cli.UsageError
	switch {
	case errors.As(err, &usage):
		return 2
	case errors.Is(err, cli.ErrDatabase):
		return 4
	case incident.KindOf(err) != "":
		return 3
	}
	return 1
}
