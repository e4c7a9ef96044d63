package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Limits of one statement the server runs.
const (
	DefaultRows    = 1000
	MaxRows        = 10000
	DefaultTimeout = 5 * time.Second
	MaxTimeout     = 30 * time.Second
	// MaxStatement bounds the text of a statement.
	MaxStatement = 64 << 10
	// MaxResultBytes bounds the rows of one answer (their JSON encoding);
	// the answer says where it was cut.
	MaxResultBytes = 4 << 20
	// DefaultMemory is the memory_limit of a worker's DuckDB; the kernel
	// stops the whole worker at DefaultMemory+workerOverhead.
	DefaultMemory  = 512 << 20
	workerOverhead = 512 << 20
	// DefaultWorkers is how many statements run at once.
	DefaultWorkers = 2
)

// ErrBusy is returned when every worker is busy; the caller should retry
// in RetryAfter.
var ErrBusy = errors.New("too many SQL statements are running")

// RetryAfter is how long a caller refused with ErrBusy should wait.
const RetryAfter = time.Second

// Limits bound one statement.
type Limits struct {
	Rows    int           // rows returned at most (0: DefaultRows; at most MaxRows)
	Bytes   int           // bytes of rows returned at most (0: MaxResultBytes)
	Timeout time.Duration // wall time (0: DefaultTimeout; at most MaxTimeout)
	Memory  int64         // the worker's DuckDB memory_limit (0: DefaultMemory)
}

func (l Limits) normalize() Limits {
	if l.Rows <= 0 {
		l.Rows = DefaultRows
	}
	l.Rows = min(l.Rows, MaxRows)
	if l.Bytes <= 0 || l.Bytes > MaxResultBytes {
		l.Bytes = MaxResultBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	l.Timeout = min(l.Timeout, MaxTimeout)
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	return l
}

// Result is the answer to one statement.
type Result struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// Truncated is true when the statement had more rows than the answer
	// holds; TruncatedAt says where it was cut: "truncated at 1000 rows" or
	// "truncated at 4194304 bytes".
	Truncated   bool    `json:"truncated"`
	TruncatedAt string  `json:"truncated_at,omitempty"`
	RowLimit    int     `json:"row_limit"`
	ByteLimit   int     `json:"byte_limit"`
	ElapsedMs   float64 `json:"elapsed_ms"`
}

// Pool runs statements in worker processes, each started fresh for one
// statement, at most a fixed number at once. A worker holds no state
// between statements, cannot reach the server's memory or files, and is
// killed at its time limit: DuckDB only checks for interruption between
// chunks of rows, so a single expensive call (levenshtein of two long
// strings) would otherwise run on long after it was cancelled.
type Pool struct {
	start func(ctx context.Context) *exec.Cmd
	slots chan struct{}
}

// NewPool runs at most n statements at once (0: DefaultWorkers) in
// processes made by start; each must call RunWorker.
func NewPool(start func(ctx context.Context) *exec.Cmd, n int) *Pool {
	if n <= 0 {
		n = DefaultWorkers
	}
	return &Pool{start: start, slots: make(chan struct{}, n)}
}

// Query runs one read-only statement against the copy at db (see
// store.WriteCopy). It returns ErrBusy at once when every worker is
// busy, and *SQLError values for statements refused, failed, cut off by
// the time limit or out of memory.
func (p *Pool) Query(ctx context.Context, db, query string, lim Limits) (*Result, error) {
	lim = lim.normalize()
	if len(query) > MaxStatement {
		return nil, &SQLError{Err: fmt.Errorf("statement of %d bytes is over the %d-byte limit", len(query), MaxStatement), Problem: TooLarge, Hint: hints[Server][TooLarge]}
	}
	if strings.TrimSpace(query) == "" {
		return nil, &SQLError{Err: errors.New("no SQL statement given"), Problem: NotOne, Hint: hints[Server][NotOne]}
	}
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
	default:
		return nil, ErrBusy
	}
	started := time.Now()
	qctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	res, err := p.run(qctx, request{DB: db, SQL: query, Rows: lim.Rows, Bytes: lim.Bytes, Memory: lim.Memory}, lim)
	if err != nil {
		var se *SQLError
		if errors.As(err, &se) {
			se.Stmt = ""
			return nil, se
		}
		switch {
		case errors.Is(qctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
			return nil, &SQLError{Err: fmt.Errorf("statement stopped at the %s time limit", lim.Timeout), Problem: Timeout, Hint: hints[Server][Timeout]}
		case ctx.Err() != nil:
			return nil, &SQLError{Err: fmt.Errorf("statement cancelled: %w", ctx.Err()), Problem: Cancelled}
		}
		return nil, err
	}
	res.ElapsedMs = float64(time.Since(started).Microseconds()) / 1000
	return res, nil
}

// run starts a worker, sends it the request and reads its answer within
// lim, killing it as soon as the answer is complete or cut.
func (p *Pool) run(ctx context.Context, req request, lim Limits) (*Result, error) {
	cmd := p.start(ctx)
	body, _ := json.Marshal(req)
	cmd.Stdin = bytes.NewReader(body)
	var stderr tail
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting an SQL worker: %w", err)
	}
	res, rerr := read(bufio.NewReaderSize(out, 64<<10), lim)
	cmd.Process.Kill() // done reading: a worker cut short must not run on
	werr := cmd.Wait()
	if rerr == nil {
		return res, nil
	}
	if errors.Is(rerr, errNoAnswer) && ctx.Err() == nil {
		// The worker died without answering: the kernel refused it memory,
		// or it crashed.
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "out of memory") || strings.Contains(msg, "cannot allocate") || strings.Contains(msg, "bad_alloc") {
			return nil, &SQLError{Err: fmt.Errorf("statement stopped: it needed more than the %d MiB it may use", (lim.Memory+workerOverhead)>>20), Problem: OutOfMemory, Hint: hints[Server][OutOfMemory]}
		}
		return nil, fmt.Errorf("the SQL worker stopped without an answer (%v): %s", werr, lastLine(msg))
	}
	return nil, rerr
}

// errNoAnswer is a worker's output that ends before its trailer.
var errNoAnswer = errors.New("no answer")

// read reads a worker's answer, cutting it at lim.Rows rows or lim.Bytes
// bytes of rows.
func read(r *bufio.Reader, lim Limits) (*Result, error) {
	res := &Result{Rows: [][]any{}, RowLimit: lim.Rows, ByteLimit: lim.Bytes}
	budget := lim.Bytes
	first := true
	for {
		// A line longer than the whole budget is never read whole; headers
		// and trailers are short.
		line, err := readLine(r, lim.Bytes+1<<20)
		if err != nil {
			if errors.Is(err, errLineTooLong) {
				res.Truncated, res.TruncatedAt = true, fmt.Sprintf("truncated at %d bytes", lim.Bytes)
				return res, nil
			}
			return nil, errNoAnswer
		}
		if len(line) > 0 && line[0] == '{' {
			var t struct {
				header
				trailer
			}
			if err := json.Unmarshal(line, &t); err != nil {
				return nil, fmt.Errorf("reading the SQL worker's answer: %w", err)
			}
			switch {
			case t.Error != "":
				return nil, &SQLError{Err: errors.New(t.Error), Problem: t.Problem, Hint: t.Hint}
			case t.End:
				return res, nil
			case first:
				res.Columns = t.Columns
			}
			first = false
			continue
		}
		if len(res.Rows) == lim.Rows {
			res.Truncated, res.TruncatedAt = true, fmt.Sprintf("truncated at %d rows", lim.Rows)
			return res, nil
		}
		if len(line) > budget {
			res.Truncated, res.TruncatedAt = true, fmt.Sprintf("truncated at %d bytes", lim.Bytes)
			return res, nil
		}
		budget -= len(line)
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var row []any
		if err := dec.Decode(&row); err != nil {
			return nil, fmt.Errorf("reading row %d of the SQL worker's answer: %w", len(res.Rows)+1, err)
		}
		res.Rows = append(res.Rows, row)
	}
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline, refusing lines of max
// bytes or more without reading them whole.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(buf)+len(part) > max {
			return nil, errLineTooLong
		}
		buf = append(buf, part...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(buf, []byte{'\n'}), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, err
		}
	}
}

// tail keeps the last 4 KiB written to it.
type tail struct{ b []byte }

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4<<10 {
		t.b = t.b[len(t.b)-4<<10:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
