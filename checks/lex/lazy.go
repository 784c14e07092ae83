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

// Lazy returns a Pattern for expr. Like regexp.MustCompile it panics on a
// bad expression, on first use; tests compile every pattern they use.
func Lazy(expr string) *Pattern { return &Pattern{expr: expr} }

// Re returns the compiled expression.
func (p *Pattern) Re() *regexp.Regexp {
	p.once.Do(func() { p.re = regexp.MustCompile(p.expr) })
	return p.re
}
