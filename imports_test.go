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

// TestRunPathStaysLean keeps the libraries with costly package
// initialisation, and every network stack, out of the attest binary: they
// run in the attest-net helper or in packages the CLI does not link, so an
// offline run starts fast and cannot reach the network.
func TestRunPathStaysLean(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/attest").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list returned %d packages; is the command broken?", len(deps))
	}
	for _, d := range deps {
		for _, heavy := range []string{"github.com/google/osv-scalibr", "osv.dev/bindings", "google.golang.org/grpc",
			"google.golang.org/protobuf", "github.com/modelcontextprotocol/go-sdk", "github.com/santhosh-tekuri/jsonschema",
			"net/http", "crypto/tls", "crypto/x509", "github.com/go-git/go-git/v5/plumbing/transport", "github.com/ProtonMail/go-crypto"} {
			if strings.HasPrefix(d, heavy) {
				t.Errorf("cmd/attest links %s", d)
			}
		}
	}
}

// TestVerifierStaysLean keeps sigstore-go, the network stack and the
// other heavy libraries out of attest-verify, which verifies a key-signed
// report in one short process and hands everything else to attest-net.
func TestVerifierStaysLean(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/attest-verify").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/secure-systems-lab/go-securesystemslib/dsse") {
		t.Fatal("attest-verify does not link the DSSE verifier; is the command broken?")
	}
	for _, d := range deps {
		for _, heavy := range []string{"github.com/sigstore/sigstore-go", "github.com/sigstore/sigstore/", "github.com/sigstore/rekor",
			"github.com/go-openapi", "github.com/google/osv-scalibr", "osv.dev/bindings", "google.golang.org/grpc",
			"net/http", "crypto/tls", "github.com/go-git/go-git/v5/plumbing/transport", "github.com/ProtonMail/go-crypto"} {
			if strings.HasPrefix(d, heavy) {
				t.Errorf("cmd/attest-verify links %s", d)
			}
		}
	}
}
