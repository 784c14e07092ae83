package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
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
	b.WriteString("\n## Environment\n\n| variable | effect |\n|---|---|\n")
	b.WriteString("| `NO_COLOR` | no colour in the text report |\n| `TERM=dumb` | no colour in the text report |\n| `ATTEST_ASCII=1` | ASCII glyphs only in the text report |\n")
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
