package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Bounds of one message read by attest mcp serve: its bytes and its
// nesting (a tool call's arguments are a few levels deep).
const (
	mcpMaxMessage = 4 << 20
	mcpMaxDepth   = 64
)

// lockedWriter serialises whole writes: the MCP transport writes a
// message in one call, and the message reader's own error answers must
// not land inside one.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// messageReader stands between standard input and the MCP SDK's
// transport, which stops serving at the first frame it cannot decode. It
// passes on each line that is one JSON-RPC message, and answers any other
// line itself with a JSON-RPC error (id null: a line that is not a
// message has no id one can trust), so a bad line costs one error answer
// and the server keeps serving. Lines are bounded (mcpMaxMessage; the
// rest of a longer line is read and dropped) and so is nesting
// (mcpMaxDepth).
type messageReader struct {
	in      *bufio.Reader
	closer  io.Closer
	out     io.Writer
	pending []byte
	err     error
}

func newMessageReader(in io.ReadCloser, out io.Writer) *messageReader {
	return &messageReader{in: bufio.NewReaderSize(in, 64<<10), closer: in, out: out}
}

func (r *messageReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		line, tooLong, err := r.line()
		r.err = err
		line = bytes.TrimSpace(line)
		if len(line) == 0 && !tooLong {
			continue
		}
		code, why := checkMessage(line, tooLong)
		if code != 0 {
			if _, werr := r.out.Write(errorAnswer(code, why)); werr != nil {
				return 0, werr
			}
			continue
		}
		r.pending = append(line, '\n')
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

func (r *messageReader) Close() error { return r.closer.Close() }

// line reads up to the next newline, keeping at most mcpMaxMessage bytes;
// tooLong says more were dropped. At the end of input it returns what is
// left with io.EOF.
func (r *messageReader) line() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.in.ReadSlice('\n')
		if len(line)+len(chunk) > mcpMaxMessage {
			tooLong, line = true, line[:0]
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// checkMessage says why a line is not one JSON-RPC message the server
// can take: 0 when it is, else a JSON-RPC error code and a reason.
func checkMessage(line []byte, tooLong bool) (int, string) {
	switch {
	case tooLong:
		return jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes", mcpMaxMessage)
	case !json.Valid(line):
		return jsonrpc.CodeParseError, "parse error: the line is not JSON"
	case depth(line) > mcpMaxDepth:
		return jsonrpc.CodeInvalidRequest, fmt.Sprintf("nested deeper than %d", mcpMaxDepth)
	case line[0] == '[':
		return jsonrpc.CodeInvalidRequest, "a batch: send one message a line (MCP has no batches since 2025-06-18)"
	case line[0] != '{':
		return jsonrpc.CodeInvalidRequest, "not a JSON-RPC message (an object)"
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: " + err.Error()
	}
	return 0, ""
}

// depth is the deepest nesting of valid JSON: brackets outside strings.
func depth(b []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// errorAnswer is a JSON-RPC error response with id null, one line.
func errorAnswer(code int, why string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": why}})
	return append(b, '\n')
}
