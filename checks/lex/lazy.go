package lex

import (
	"regexp"
	"sync"
)

// Pattern is a regular expression compiled on first use, so that a
// package's patterns cost nothing at process start (a run evaluates one
// kind and touches few of them).
type Pattern struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu       sync.Mutex
	patterns []*Pattern
)

// Lazy returns a Pattern for expr. Like regexp.MustCompile it panics on a
// bad expression, on first use; every Pattern is listed by Patterns, and a
// test compiles them all.
func Lazy(expr string) *Pattern {
	p := &Pattern{expr: expr}
	mu.Lock()
	patterns = append(patterns, p)
	mu.Unlock()
	return p
}

// Patterns lists every Pattern made so far, for tests.
func Patterns() []*Pattern {
	mu.Lock()
	defer mu.Unlock()
	return append([]*Pattern(nil), patterns...)
}

// Expr returns the expression.
func (p *Pattern) Expr() string { return p.expr }

// Re returns the compiled expression.
func (p *Pattern) Re() *regexp.Regexp {
	p.once.Do(func() { p.re = regexp.MustCompile(p.expr) })
	return p.re
}

// Compiled reports whether the pattern was compiled (it was needed).
func (p *Pattern) Compiled() bool { return p.re != nil }
