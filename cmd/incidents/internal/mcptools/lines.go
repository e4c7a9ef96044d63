package mcptools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineGuard passes on the lines of its reader that are JSON-RPC messages
// and answers every other line itself, with a JSON-RPC error whose id is
// null (-32700 for a line that is not JSON, -32600 for JSON that is not a
// message, both naming the line), so one bad line does not end the session:
// the SDK reads its input as one stream of JSON, which cannot be read past
// a syntax error. Blank lines are skipped.
type lineGuard struct {
	br   *bufio.Reader
	w    io.Writer // shared with the transport's writes (lockedWriter)
	line int
	rest []byte // the part of the current line not yet passed on
	err  error  // the reader's error, returned once rest is passed on
}

func newLineGuard(r io.Reader, w io.Writer) *lineGuard {
	return &lineGuard{br: bufio.NewReaderSize(r, 64<<10), w: w}
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.rest) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		line, err := g.readLine()
		g.err = err
		if len(line) > 0 {
			g.line++
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if msg := refusal(line); msg != nil {
				msg.Message = fmt.Sprintf("line %d of the input: %s", g.line, msg.Message)
				if werr := g.answer(msg); werr != nil {
					return 0, werr
				}
				continue
			}
			g.rest = line
		}
	}
	n := copy(p, g.rest)
	g.rest = g.rest[n:]
	return n, nil
}

// readLine reads one line with its newline; a line longer than
// mcp.DefaultMaxLineLength is read to its end and returned cut short,
// which refusal then refuses as JSON that does not end.
func (g *lineGuard) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := g.br.ReadSlice('\n')
		if len(line) < mcp.DefaultMaxLineLength {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// refusal says why a line is not a JSON-RPC message, nil when it is one
// (a batch is left to the SDK).
func refusal(line []byte) *jsonrpc.Error {
	t := bytes.TrimSpace(line)
	if !json.Valid(t) {
		var v any
		err := json.Unmarshal(t, &v)
		why := "it is not JSON"
		if err != nil {
			why = "it is not JSON (" + err.Error() + ")"
		}
		return &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: why + "; write one JSON-RPC message a line"}
	}
	switch t[0] {
	case '[':
		return nil
	case '{':
		if _, err := jsonrpc.DecodeMessage(t); err == nil {
			return nil
		}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
		Message: `it is JSON but not a JSON-RPC message; write {"jsonrpc": "2.0", "id": ..., "method": ..., "params": ...}`}
}

// answer writes the error response to a refused line.
func (g *lineGuard) answer(e *jsonrpc.Error) error {
	b, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      *int           `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", nil, e})
	if err != nil {
		return err
	}
	_, err = g.w.Write(append(b, '\n'))
	return err
}

// lockedWriter serialises writes: the transport writes each message with
// one Write, and the line guard's answers go between them, never inside.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
