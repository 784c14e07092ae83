package manifest

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Pos is a 1-based line and column (in Unicode code points) in the original
// file. The zero Pos means "no position".
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"column,omitempty"`
}

func (p Pos) String() string {
	if p.Col == 0 {
		return fmt.Sprintf("%d", p.Line)
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// PosAt converts a byte offset in data to a Pos.
func PosAt(data []byte, off int) Pos {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	head := data[:off]
	line := bytes.Count(head, []byte{'\n'}) + 1
	start := bytes.LastIndexByte(head, '\n') + 1
	return Pos{Line: line, Col: utf8.RuneCount(head[start:]) + 1}
}

// SyntaxError is a parse failure at a position in the file.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
}

// DuplicateKey is a key that appears twice in one object or table. Parsers
// disagree on which value wins, so a duplicate is treated as an attack.
type DuplicateKey struct {
	Key string // dotted path of the key
	Pos Pos    // of the second occurrence
}

// LimitError says a document exceeded one of the named limits.
type LimitError struct {
	Limit string
	Max   int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("exceeds the %s limit of %d", e.Limit, e.Max)
}

var bom = []byte("\xef\xbb\xbf")

// stripBOM removes a UTF-8 byte order mark and reports its length.
func stripBOM(data []byte) ([]byte, int) {
	if bytes.HasPrefix(data, bom) {
		return data[len(bom):], len(bom)
	}
	return data, 0
}

func checkSize(data []byte) error {
	if len(data) > MaxManifestBytes {
		return &LimitError{Limit: "manifest size in bytes", Max: MaxManifestBytes}
	}
	return nil
}
