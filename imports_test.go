// Package repo holds repository-wide tests: the import direction of
// ARCHITECTURE §2.
package repo

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/metahub-ai/attest/"

// rank orders the root packages; a package may import only packages of a
// lower rank (and its own concern's subpackages). attest and tlog share a
// rank but must not import each other.
var rank = map[string]int{
	"resolve": 0, "mcp": 1, "checks": 2, "behave": 3, "policy": 4,
	"attest": 5, "tlog": 5, "verify": 6, "render": 7, "cmd": 8,
}

// leaf holds the tokenizers (checks/lex) and the folding engine
// (checks/lex/fold) that every package may import; they import no project
// package outside the leaf.
const leaf = "checks/lex"

func concern(importPath string) string {
	rel := strings.TrimPrefix(importPath, module)
	return strings.Split(rel, "/")[0]
}

// TestImportDirection fails on any import against the direction of
// ARCHITECTURE §2 in non-test code.
func TestImportDirection(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() && path != "." {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module (tools/…) is not part of the build
			}
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		from := strings.Split(dir, "/")[0]
		fromRank, ok := rank[from]
		if !ok {
			t.Errorf("%s: package %s is not in the architecture's package map", path, dir)
			return nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			n++
			rel := strings.TrimPrefix(p, module)
			inLeaf := func(p string) bool { return p == leaf || strings.HasPrefix(p, leaf+"/") }
			switch {
			case inLeaf(dir) && !inLeaf(rel):
				t.Errorf("%s: the leaf %s must import no project package outside it, imports %s", path, leaf, rel)
			case inLeaf(rel):
			case concern(p) == from:
			case rank[concern(p)] >= fromRank:
				t.Errorf("%s: %s imports %s, against the direction resolve → mcp → checks → behave → policy → attest, tlog → verify → render → cmd", path, dir, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no project imports found; is the walk broken?")
	}
}

// TestOneBinary: cmd/attest is the only command the module builds, so
// 'go install …/cmd/attest' gives every feature (the agent inside a
// sandbox is the same binary).
func TestOneBinary(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Name}} {{.ImportPath}}", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	var mains []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// A generator run by go generate is not a command users install.
		if name, path, _ := strings.Cut(l, " "); name == "main" && !strings.HasSuffix(path, "/gen") {
			mains = append(mains, path)
		}
	}
	if !slices.Equal(mains, []string{module + "cmd/attest"}) {
		t.Errorf("the module builds these commands: %v; want cmd/attest alone", mains)
	}
}

// TestOneCanonicalJSON: RFC 8785 canonical JSON comes from one library
// (the one rekor-tiles links too), never two that could disagree.
func TestOneCanonicalJSON(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/attest").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer") {
		t.Fatal("attest does not link the canonicalizer; is the list broken?")
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/gowebpki/jcs") {
			t.Errorf("cmd/attest links a second RFC 8785 implementation, %s", d)
		}
	}
}
