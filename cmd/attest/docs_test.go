package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

var fixDocs = flag.Bool("fixdocs", false, "rewrite docs/CLI.md")

// TestDocsUpToDate keeps docs/CLI.md generated from the command table, so
// the manual says exactly what --help says.
func TestDocsUpToDate(t *testing.T) {
	a := &app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: func(string) string { return "" }}
	root := newRootCmd(a)
	root.InitDefaultCompletionCmd()
	var b bytes.Buffer
	b.WriteString("# attest command line\n\nGenerated from the command table by `go test ./cmd/attest -run TestDocsUpToDate -fixdocs`; do not edit.\n\n")
	fmt.Fprintf(&b, "%s\n\n## Exit codes\n\n| code | name | meaning |\n|---|---|---|\n", root.Short)
	for _, c := range exitCodes {
		fmt.Fprintf(&b, "| %d | %s | %s |\n", c.Code, c.Name, c.Meaning)
	}
	b.WriteString("\n## Environment\n\nEvery variable attest reads:\n\n| variable | effect |\n|---|---|\n")
	for _, e := range environment {
		fmt.Fprintf(&b, "| `%s` | %s |\n", e.Name, e.Effect)
	}
	b.WriteString("\nRead only by the test suite:\n\n| variable | effect |\n|---|---|\n")
	for _, e := range testEnvironment {
		fmt.Fprintf(&b, "| `%s` | %s |\n", e.Name, e.Effect)
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		if c != root {
			fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n```\n%s\n```\n", c.CommandPath(), c.Short, c.UseLine())
			if c.Long != "" {
				fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(c.Long))
			}
			if c.Example != "" {
				fmt.Fprintf(&b, "\nExamples:\n\n```\n%s\n```\n", c.Example)
			}
			if f := c.NonInheritedFlags().FlagUsages(); strings.TrimSpace(f) != "" {
				fmt.Fprintf(&b, "\nFlags:\n\n```\n%s```\n", f)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	const path = "../../docs/CLI.md"
	if *fixDocs {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(have, b.Bytes()) {
		t.Fatalf("docs/CLI.md is out of date; run 'go test ./cmd/attest -run TestDocsUpToDate -fixdocs' (%v)", err)
	}
}

// envRead finds the variables the code reads: Getenv calls with a literal
// or an Env… constant, and the model providers' key and endpoint names.
var envRead = regexp.MustCompile(`(?:[Gg]etenv|envOr|LookupEnv)\("([A-Za-z_][A-Za-z0-9_]*)"|\bEnv[A-Za-z]* += "([A-Za-z_][A-Za-z0-9_]*)"|\{"[a-z-]+", "([A-Z0-9_]+)", "([A-Z0-9_]+)",`)

// TestEnvironmentListed: every environment variable the code reads (test
// files included) is in the manual's tables.
// rawStrings are the byte ranges of a Go file's raw string literals,
// where the producers' tests keep the source they analyse.
func rawStrings(src []byte) [][2]int {
	var s scanner.Scanner
	fset := token.NewFileSet()
	f := fset.AddFile("", fset.Base(), len(src))
	s.Init(f, src, nil, 0)
	var out [][2]int
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.STRING && strings.HasPrefix(lit, "`") {
			off := f.Offset(pos)
			out = append(out, [2]int{off, off + len(lit)})
		}
	}
}

func inSpans(spans [][2]int, off int) bool {
	for _, sp := range spans {
		if off >= sp[0] && off < sp[1] {
			return true
		}
	}
	return false
}

func TestEnvironmentListed(t *testing.T) {
	listed := map[string]bool{}
	for _, e := range append(append([]envVar{}, environment...), testEnvironment...) {
		listed[e.Name] = true
	}
	found := 0
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".") && d.Name() != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		raw := rawStrings(src)
		for _, m := range envRead.FindAllSubmatchIndex(src, -1) {
			if inSpans(raw, m[0]) {
				continue // Go source quoted as a fixture, not read by attest
			}
			for i := 2; i+1 < len(m); i += 2 {
				if m[i] < 0 {
					continue
				}
				name := src[m[i]:m[i+1]]
				found++
				if !listed[string(name)] {
					t.Errorf("%s reads %s, which docs/CLI.md does not list (cmd/attest/environ.go)", p, name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 20 {
		t.Fatalf("found %d environment reads; is the pattern broken?", found)
	}
}
