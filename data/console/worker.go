package console

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"incidents/data/store"
)

// request is what the server sends a worker process on its stdin.
type request struct {
	// DB is the copy of the public views to query (store.WriteCopy).
	DB  string `json:"db"`
	SQL string `json:"sql"`
	// Rows and Bytes: the worker stops after Rows+1 rows or Bytes bytes of
	// rows, so that the server can tell a full answer from a cut one.
	Rows   int   `json:"rows"`
	Bytes  int   `json:"bytes"`
	Memory int64 `json:"memory"`
}

// The worker answers in JSON lines on stdout: a header, one JSON array per
// row, then a trailer; an error may replace the header or the trailer.
type header struct {
	Columns []string `json:"columns"`
}

type trailer struct {
	End     bool    `json:"end,omitempty"`
	Error   string  `json:"error,omitempty"`
	Problem Problem `json:"problem,omitempty"`
	Hint    string  `json:"hint,omitempty"`
}

// RunWorker is the main function of a worker process: it reads one request
// from in, runs its statement on the copy it names and writes the answer
// to out. Before touching the database it bounds its own memory (the
// kernel refuses allocations past about twice the DuckDB limit) and lowers
// its scheduling priority, so that a runaway statement hurts neither the
// server nor the machine; the server kills it at the time limit.
func RunWorker(ctx context.Context, in io.Reader, out io.Writer) error {
	var req request
	if err := json.NewDecoder(io.LimitReader(in, 1<<20)).Decode(&req); err != nil {
		return fmt.Errorf("sql worker: reading the request: %w", err)
	}
	if req.Memory <= 0 {
		req.Memory = DefaultMemory
	}
	confine(req.Memory + workerOverhead)
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	enc := json.NewEncoder(w)
	if err := work(ctx, &req, enc, w); err != nil {
		var se *SQLError
		if !errors.As(err, &se) {
			se = explain(ctx, req.SQL, err, Server)
		}
		return enc.Encode(trailer{Error: se.Message(), Problem: se.Problem, Hint: se.Hint})
	}
	return enc.Encode(trailer{End: true})
}

// work runs the request and writes the header and the rows.
func work(ctx context.Context, req *request, enc *json.Encoder, w *bufio.Writer) error {
	st, err := store.OpenConsole(ctx, req.DB, store.ConsoleOptions{MemoryLimit: req.Memory, Threads: 1, NoSpill: true, Copy: true})
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := st.DB().Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := Judge(ctx, c, req.SQL, Server); err != nil {
		return err
	}
	rows, err := c.QueryContext(ctx, req.SQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := enc.Encode(header{Columns: cols}); err != nil {
		return err
	}
	sc := newScanner(rows, len(cols))
	sent, n := 0, 0
	for rows.Next() && n <= req.Rows && sent <= req.Bytes {
		row, err := sc.scan(Cell)
		if err != nil {
			return err
		}
		b, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("encoding row %d: %w", n+1, err)
		}
		w.Write(b)
		w.WriteByte('\n')
		sent += len(b) + 1
		n++
	}
	return rows.Err()
}
