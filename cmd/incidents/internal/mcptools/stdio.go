package mcptools

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long a stdio server whose input has ended waits
// for the answers to the requests it has read. Every tool finishes well
// within it (query_sql stops at 30 s at most).
const DrainTimeout = time.Minute

// methodListen is the one call whose handler lasts until the client
// cancels it (SEP-2575 subscriptions): a client that closed its input
// cannot, so its answer is not waited for.
const methodListen = "subscriptions/listen"

// StdioTransport is the transport of 'incidents mcp': newline-delimited
// JSON-RPC read from r and written to w, neither of which it closes.
//
// Unlike the SDK's IOTransport alone, it answers every request it has read
// before it reports the end of r: a client that writes its requests and
// closes its end of the pipe gets every answer. (In go-sdk v1.8.0 the end
// of input marks the whole connection as closing, so the answers of calls
// still running were dropped; see modelcontextprotocol/go-sdk#1061.) The
// wait ends when the last answer is written, when the session is closed
// (a signal), or after DrainTimeout.
//
// A line that is not a JSON-RPC message is answered with a JSON-RPC error
// naming the line, and the session goes on (see lineGuard).
func StdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	lw := &lockedWriter{w: w}
	return &drainTransport{inner: &mcp.IOTransport{Reader: io.NopCloser(newLineGuard(r, lw)), Writer: lw},
		expire: func() <-chan time.Time { return time.After(DrainTimeout) }}
}

// drainTransport wraps the connections of inner in drainConn.
type drainTransport struct {
	inner mcp.Transport
	// expire starts the wait for the answers; the channel it returns
	// ends it.
	expire func() <-chan time.Time
}

func (t *drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, expire: t.expire, closed: make(chan struct{}), idle: make(chan struct{}, 1), listens: map[jsonrpc.ID]bool{}}, nil
}

// drainConn counts the calls read and the responses written, and holds
// back a read error until the two are equal. Counting rather than matching
// ids keeps it right for calls the connection refuses (a reused id is
// answered under no id) and for batches (each member is read and answered
// on its own; the inner connection assembles the batch answer).
//
// The wrapper hides the inner connection's protocol-version hook, which
// the SDK only uses to refuse JSON-RPC batches from clients of protocol
// 2025-06-18 and later; such batches are answered instead.
type drainConn struct {
	mcp.Connection
	expire func() <-chan time.Time

	mu      sync.Mutex
	pending int                 // calls read and not yet answered
	listens map[jsonrpc.ID]bool // subscriptions/listen calls, not counted
	idle    chan struct{}       // signalled when pending drops to zero

	closeOnce sync.Once
	closed    chan struct{}
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			if req.Method == methodListen {
				c.listens[req.ID] = true
			} else {
				c.pending++
			}
			c.mu.Unlock()
		}
		return msg, nil
	}
	if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		c.drain(ctx)
	}
	return nil, err
}

// drain waits until every call read has been answered, the connection is
// closed, ctx is done or the wait expires.
func (c *drainConn) drain(ctx context.Context) {
	expired := c.expire()
	for {
		c.mu.Lock()
		n := c.pending
		c.mu.Unlock()
		if n <= 0 {
			return
		}
		select {
		case <-c.idle:
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		case <-expired:
			return
		}
	}
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.listens[resp.ID] {
			delete(c.listens, resp.ID)
		} else {
			c.pending--
		}
		if c.pending <= 0 {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
		c.mu.Unlock()
	}
	return err
}

func (c *drainConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}
