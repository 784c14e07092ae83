package suite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/suite"
)

// TestFixtureTableUpToDate keeps the per-check fixture counts of
// docs/DETECTION.md equal to the fixture directories (rewritten with
// -fixdocs).
func TestFixtureTableUpToDate(t *testing.T) {
	cat, err := suite.Default()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| check | axis | blocking | pos | neg |\n|---|---|---|---|---|\n")
	for _, e := range cat.Entries() {
		count := func(side string) int {
			ds, _ := os.ReadDir(filepath.Join("..", e.ID, "testdata", side))
			n := 0
			for _, d := range ds {
				if d.IsDir() {
					n++
				}
			}
			return n
		}
		blocking := ""
		if e.Blocking {
			blocking = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d |\n", e.ID, e.Axis, blocking, count("pos"), count("neg"))
	}
	const path = "../../docs/DETECTION.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start, end := strings.Index(string(doc), "<!-- fixtures:start -->\n"), strings.Index(string(doc), "<!-- fixtures:end -->")
	if start < 0 || end < start {
		t.Fatal("docs/DETECTION.md has no fixtures section markers")
	}
	updated := string(doc[:start]) + "<!-- fixtures:start -->\n" + b.String() + string(doc[end:])
	if *fixDocs {
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if updated != string(doc) {
		t.Error("the fixture table of docs/DETECTION.md is out of date; run 'go test ./checks/suite -run TestFixtureTableUpToDate -fixdocs'")
	}
}
