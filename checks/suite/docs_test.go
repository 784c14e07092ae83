package suite_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/suite"
)

var fixDocs = flag.Bool("fixdocs", false, "rewrite docs/CHECKS.md")

// TestDocsUpToDate keeps docs/CHECKS.md generated from the catalog.
func TestDocsUpToDate(t *testing.T) {
	cat, err := suite.Default()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Checks of %s %s\n\n", cat.ID, cat.Version)
	fmt.Fprintf(&b, "Generated from the catalog by `go test ./checks/suite -run TestDocsUpToDate -fixdocs`; do not edit.\n\n")
	fmt.Fprintf(&b, "Catalog digest: `%s`\n\n", cat.Digest())
	b.WriteString("| check | version | axis | weight | blocking | tier | kinds |\n|---|---|---|---|---|---|---|\n")
	for _, c := range cat.Checks() {
		e := c.Entry()
		blocking := ""
		if e.Blocking {
			blocking = "yes"
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %d | %s | %s | %s |\n", e.ID, e.ID, e.Version, e.Axis, e.Weight, blocking, e.Tier, strings.Join(e.Kinds, ", "))
	}
	for _, c := range cat.Checks() {
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n%s\n\n**Fix.** %s\n", c.ID, c.Title, strings.TrimSpace(c.Doc), strings.Join(strings.Fields(c.Remediation), " "))
	}
	const path = "../../docs/CHECKS.md"
	if *fixDocs {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(have, b.Bytes()) {
		t.Fatalf("docs/CHECKS.md is out of date; run 'go test ./checks/suite -run TestDocsUpToDate -fixdocs' (%v)", err)
	}
}
