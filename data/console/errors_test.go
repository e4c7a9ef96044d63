package console

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	live := context.Background()
	timedOut, cancel := context.WithTimeout(live, time.Nanosecond)
	defer cancel()
	<-timedOut.Done()
	stopped, stop := context.WithCancel(live)
	stop()
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want Problem
	}{
		{timedOut, errors.New("INTERRUPT Error: Interrupted!"), Timeout},
		{stopped, errors.New("INTERRUPT Error: Interrupted!"), Cancelled},
		{live, errors.New("Invalid Input Error: Cannot execute statement of type \"INSERT\" on database \"x\" which is attached in read-only mode!"), ReadOnly},
		{live, errors.New("Permission Error: Scanning files is disabled through configuration"), Other},
		{live, errors.New("Permission Error: File system LocalFileSystem has been disabled by configuration"), NoAccess},
		{live, errors.New("Out of Memory Error: could not allocate block of size 128.0 MiB (192.6 MiB/244.1 MiB used)"), OutOfMemory},
		{live, errors.New("Catalog Error: Table with name nope does not exist!"), UnknownName},
		{live, errors.New("Parser Error: syntax error at or near \"SELEC\""), Other},
		{live, &SQLError{Err: errors.New("two statements"), Problem: NotOne}, NotOne},
	} {
		if got := Classify(c.ctx, c.err); got != c.want {
			t.Errorf("%q: got %d, want %d", c.err, got, c.want)
		}
	}
}

func TestSQLErrorText(t *testing.T) {
	e := &SQLError{Stmt: "SELECT\n  nope   FROM incidents", Err: errors.New("Binder Error: nope"), Hint: "see .tables"}
	want := "Binder Error: nope\n  in statement: SELECT nope FROM incidents\n  hint: see .tables"
	if e.Error() != want || e.Message() != "Binder Error: nope" {
		t.Errorf("Error() = %q, Message() = %q", e.Error(), e.Message())
	}
}
