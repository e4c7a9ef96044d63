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

// TestSQLErrorControlCharacters: DuckDB quotes values and the statement in
// its errors, and a value may hold a terminal escape; the error, printed
// to a terminal, keeps its lines but passes no control character on.
func TestSQLErrorControlCharacters(t *testing.T) {
	e := &SQLError{Stmt: "SELECT title::INT -- \x1b[2J", Problem: Other,
		Err: errors.New("Conversion Error: Could not convert string '\x1b[31mred\x07' to INT32\n\nLINE 1: SELECT\ttitle::INT\n        ^")}
	want := "Conversion Error: Could not convert string ' [31mred ' to INT32\n\nLINE 1: SELECT title::INT\n        ^\n  in statement: SELECT title::INT --  [2J"
	if e.Error() != want {
		t.Errorf("Error():\n got %q\nwant %q", e.Error(), want)
	}
	if want := "Conversion Error: Could not convert string ' [31mred ' to INT32\n\nLINE 1: SELECT title::INT\n        ^"; e.Message() != want {
		t.Errorf("Message():\n got %q\nwant %q", e.Message(), want)
	}
}
