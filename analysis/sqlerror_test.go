package analysis

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestClassifySQLError(t *testing.T) {
	live := context.Background()
	timedOut, cancel := context.WithTimeout(live, time.Nanosecond)
	defer cancel()
	<-timedOut.Done()
	stopped, stop := context.WithCancel(live)
	stop()
	for _, c := range []struct {
		ctx  context.Context
		msg  string
		want SQLProblem
	}{
		{timedOut, "INTERRUPT Error: Interrupted!", SQLTimeout},
		{stopped, "INTERRUPT Error: Interrupted!", SQLCancelled},
		{live, "Invalid Input Error: Cannot execute statement of type \"INSERT\" on database \"x\" which is attached in read-only mode!", SQLReadOnly},
		{live, "Permission Error: Scanning files is disabled through configuration", SQLOther},
		{live, "Permission Error: File system LocalFileSystem has been disabled by configuration", SQLNoAccess},
		{live, "Catalog Error: Table with name nope does not exist!", SQLUnknownName},
		{live, "Parser Error: syntax error at or near \"SELEC\"", SQLOther},
	} {
		if got := ClassifySQLError(c.ctx, errors.New(c.msg)); got != c.want {
			t.Errorf("%q: got %d, want %d", c.msg, got, c.want)
		}
	}
}
