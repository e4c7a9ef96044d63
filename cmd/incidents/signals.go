package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop a command cleanly.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// Interrupted is the cause of a context cancelled by a signal.
type Interrupted struct{ Signal os.Signal }

func (e *Interrupted) Error() string { return signalName(e.Signal) + " received" }

// Is makes errors.Is(cause, context.Canceled) hold, as for any cancel.
func (e *Interrupted) Is(target error) bool { return target == context.Canceled }

// ExitCode is the shell's code for a process a signal stopped: 128 plus
// the signal's number (130 for SIGINT, 143 for SIGTERM).
func (e *Interrupted) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// notifyContext returns a context that the first SIGINT or SIGTERM
// cancels with an *Interrupted cause, so that the running command rolls
// back, removes its temporary files and returns. After that first signal
// the default handling is restored: a second one ends the process at once.
// stop releases the signals.
func notifyContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(&Interrupted{Signal: s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// interruptedBy returns the *Interrupted cause of ctx, or nil when no
// signal cancelled it.
func interruptedBy(ctx context.Context) *Interrupted {
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}

// stoppedMessage is the one line said when a signal stopped a command:
// the signal, then what the command said about the state it left.
func stoppedMessage(in *Interrupted, err error) string {
	return fmt.Sprintf("stopped by %s: %s", signalName(in.Signal), oneLine(err.Error()))
}

// oneLine joins the lines of a message (errors.Join gives several).
func oneLine(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, ';', ' ')
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
