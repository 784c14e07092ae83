package instruct

import (
	"strings"
	"testing"
	"unsafe"
)

// TestJoinLinesSharesTheDocument: a paragraph of untrimmed lines is the
// document's own span (no copy); anything else is joined as before.
func TestJoinLinesSharesTheDocument(t *testing.T) {
	doc := "one\ntwo\r\nthree\nfour"
	lines := strings.Split(doc, "\n")
	if got := joinLines(lines[2:4]); got != "three\nfour" || unsafe.StringData(got) != unsafe.StringData(lines[2]) {
		t.Errorf("adjacent lines: %q, shared %v", got, unsafe.StringData(got) == unsafe.StringData(lines[2]))
	}
	trimmed := []string{lines[0], strings.TrimRight(lines[1], "\r"), lines[2]}
	if got := joinLines(trimmed); got != "one\ntwo\nthree" {
		t.Errorf("a trimmed line: %q", got)
	}
	if got := joinLines([]string{lines[0], lines[2]}); got != "one\nthree" {
		t.Errorf("lines apart: %q", got)
	}
	if b := Blocks("# H\n\npara one\npara two\r\nend\n", 0); len(b) != 2 || b[1].Text != "para one\npara two\nend" {
		t.Errorf("blocks: %+v", b)
	}
}
