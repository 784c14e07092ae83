// Package vocab is the one vocabulary of the analysis model (ANALYSIS §3):
// what a credential store is, which names hold secrets, which calls and
// programs send, fetch, run, persist or destroy, which hosts capture data,
// and how text addresses a model. Checks, the producers of checks/facts and
// the behavioral scan all ask it; none keeps a list of its own.
//
// The entries are data files (data/*.txt), each entry with positive and
// negative examples that the tests run. The files' digest is the
// vocabulary's version: it enters the catalog entry of every check that
// uses the vocabulary, so a re-run at a check's version stays sound.
//
// Everything is parsed on first use: a process that never asks pays
// nothing.
package vocab

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

//go:embed data/*.txt
var data embed.FS

// Entry is one line of a data file: a label, a pattern, options, and the
// examples it must and must not match.
type Entry struct {
	File    string
	Line    int
	Section string // the "@section" the entry sits under ("" for none)
	Label   string
	Pattern string
	Opts    map[string]string
	Pos     []string
	Neg     []string
}

// Opt returns an option's value ("" when unset).
func (e *Entry) Opt(k string) string { return e.Opts[k] }

// Has reports whether a bare option (or one with a value) is set.
func (e *Entry) Has(k string) bool { _, ok := e.Opts[k]; return ok }

func (e *Entry) String() string {
	return fmt.Sprintf("%s:%d %s %s", e.File, e.Line, e.Label, e.Pattern)
}

type loaded struct {
	byFile map[string][]*Entry
	digest string
	err    error
}

var load = sync.OnceValue(func() *loaded {
	l := &loaded{byFile: map[string][]*Entry{}}
	h := sha256.New()
	names, err := fs.Glob(data, "data/*.txt")
	if err != nil {
		l.err = err
		return l
	}
	slices.Sort(names)
	for _, n := range names {
		b, err := data.ReadFile(n)
		if err != nil {
			l.err = err
			return l
		}
		base := strings.TrimSuffix(strings.TrimPrefix(n, "data/"), ".txt")
		fmt.Fprintf(h, "%s\x00%d\x00", base, len(b))
		h.Write(b)
		es, err := Parse(base, b)
		if err != nil {
			l.err = err
			return l
		}
		l.byFile[base] = es
	}
	l.digest = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return l
})

// Digest is the vocabulary's version: sha256 over every data file.
func Digest() string { return load().digest }

// Err reports a data file that does not parse; the tests hold it nil.
func Err() error { return load().err }

// Entries returns the entries of one data file.
func Entries(file string) []*Entry { return load().byFile[file] }

// Files lists the data files by base name.
func Files() []string {
	var out []string
	for k := range load().byFile {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Parse reads a data file. Its grammar:
//
//	# comment
//	@section NAME            entries below belong to NAME
//	LABEL  PATTERN  [k=v|flag]...     an entry; fields apart by tabs or 2+ spaces
//	    + EXAMPLE            must match (indented)
//	    - EXAMPLE            must not match
//	    : k=v                an option on a line of its own
func Parse(file string, b []byte) ([]*Entry, error) {
	var out []*Entry
	var cur *Entry
	var last *string // the example a continuation line extends
	lastCol := 0
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \t\r")
		trim := strings.TrimSpace(line)
		switch {
		case trim == "" || strings.HasPrefix(trim, "#"):
			continue
		case line[0] == ' ' || line[0] == '\t':
			if cur != nil && last != nil && len(line) > lastCol && strings.TrimSpace(line[:lastCol]) == "" {
				// a continuation of a multi-line example
				*last += "\n" + line[lastCol:]
				continue
			}
			if cur != nil && strings.HasPrefix(trim, ": ") {
				// an option on a line of its own (for long patterns)
				k, v, _ := strings.Cut(strings.TrimSpace(trim[2:]), "=")
				cur.Opts[k] = v
				last = nil
				continue
			}
			if cur == nil || len(trim) < 2 || (trim[0] != '+' && trim[0] != '-') || trim[1] != ' ' {
				return nil, fmt.Errorf("%s:%d: an indented line must be '+ example' or '- example' under an entry", file, n)
			}
			ex := trim[2:]
			lastCol = len(line) - len(trim) + 2
			if trim[0] == '+' {
				cur.Pos = append(cur.Pos, ex)
				last = &cur.Pos[len(cur.Pos)-1]
			} else {
				cur.Neg = append(cur.Neg, ex)
				last = &cur.Neg[len(cur.Neg)-1]
			}
		case strings.HasPrefix(trim, "@section "):
			section = strings.TrimSpace(strings.TrimPrefix(trim, "@section "))
			cur, last = nil, nil
		default:
			fields := splitFields(trim)
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: an entry needs a label and a pattern", file, n)
			}
			cur = &Entry{File: file, Line: n, Section: section, Label: fields[0], Pattern: fields[1], Opts: map[string]string{}}
			last = nil
			for _, f := range fields[2:] {
				k, v, _ := strings.Cut(f, "=")
				cur.Opts[k] = v
			}
			out = append(out, cur)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// splitFields splits on tabs and runs of two or more spaces, so a pattern
// may hold single spaces.
func splitFields(s string) []string {
	var out []string
	for _, tab := range strings.Split(s, "\t") {
		for _, f := range strings.Split(tab, "  ") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}
