package depsnottyposquatted

import (
	"github.com/metahub-ai/attest/checks/checktest"
	"strings"
	"testing"
)

func TestPopularNamesPass(t *testing.T) {
	for _, c := range []struct {
		eco  Ecosystem
		name string
	}{{NPM, "request"}, {NPM, "color"}, {NPM, "just"}, {NPM, "label"}, {PyPI, "panda"},
		{NPM, "react"}, {NPM, "@types/node"}, {NPM, "@modelcontextprotocol/server-github"}, {NPM, "@vue/anything"}, {NPM, "@acme/anything"}, {NPM, "cross-env"}, {PyPI, "requests"}, {PyPI, "Python_Dotenv"},
		{NPM, "@acme-tools/issues-mcp"}, {NPM, "@remotion/player"}, {NPM, "@nestjsx/crud-typeorm-plus"}, {NPM, "@aws/mcp-tools"}} {
		if m, ok := Load(c.eco).Check(c.name); ok {
			t.Errorf("%s %s flagged: %+v", c.eco, c.name, m)
		}
	}
}

func TestTyposquatsFail(t *testing.T) {
	for _, c := range []struct {
		eco          Ecosystem
		name, target string
		warn         bool
	}{
		{NPM, "lodahs", "lodash", false},
		{NPM, "crossenv", "cross-env", false},
		{PyPI, "reqeusts", "requests", false},
		{PyPI, "python-dotnev", "python-dotenv", false},
		{NPM, "env-cross", "cross-env", false},
		{NPM, "@typs/node", "@types/node", false},
		{NPM, "types-node", "@types/node", false},
		{NPM, "rnoment", "moment", false},
		{NPM, "expres", "express", false},
		{PyPI, "python-requests", "requests", false},
		{NPM, "@acme-dev/lodash", "lodash", true},
		{NPM, "@modelcontextprotocl/server-github", "@modelcontextprotocol/server-github", false},
		{NPM, "@typescript-esint/any-rule", "@typescript-eslint/any-rule", false},
		{NPM, "@modelcontextprotoco1/server-x", "@modelcontextprotocol/server-x", false},
		{NPM, "@modelcontextprotocl/server-filesystem", "@modelcontextprotocol/server-filesystem", false},
		{NPM, "@modelcontext-protocol/server-memory", "@modelcontextprotocol/server-memory", false},
		{NPM, "@typescrpt-eslint/utils", "@typescript-eslint/utils", false},
	} {
		m, ok := Load(c.eco).Check(c.name)
		if !ok || m.Target != c.target || m.Warn != c.warn {
			t.Errorf("%s %s: got %+v (flagged %v), want %s (warn %v)", c.eco, c.name, m, ok, c.target, c.warn)
		}
	}
}

// The committed data must be what the check believes: every list headed by
// its provenance, 5,000 popular names most popular first, and no name of
// either list flagged.
func TestData(t *testing.T) {
	for _, c := range []struct {
		eco       Ecosystem
		pop, nb   []byte
		keys      string
		threshold int64
	}{{NPM, npmPopular, npmNeighbours, npmKeys, 100 * 50_000}, {PyPI, pypiPopular, pypiNeighbours, pypiKeys, 0}} {
		for _, b := range [][]byte{c.pop, c.nb, []byte(c.keys)} {
			if h := string(b[:200]); !strings.Contains(h, "# input sha256 ") || !strings.Contains(h, "snapshot 20") || !strings.Contains(h, "# generator ") {
				t.Errorf("%s: data file lacks its provenance header: %q", c.eco, h)
			}
		}
		p, n, err := ParseData(c.pop, c.nb)
		if err != nil {
			t.Fatal(err)
		}
		if len(p) != 5000 || len(n) == 0 {
			t.Fatalf("%s: %d popular, %d neighbours", c.eco, len(p), len(n))
		}
		for i := 1; i < len(p); i++ {
			if p[i].Pop > p[i-1].Pop {
				t.Fatalf("%s: popular list not sorted at %s", c.eco, p[i].Name)
			}
		}
		if p[len(p)-1].Pop < c.threshold {
			t.Errorf("%s: least popular target %d under %d", c.eco, p[len(p)-1].Pop, c.threshold)
		}
		// The key index is the one the popular list gives.
		var body strings.Builder
		for _, l := range strings.SplitAfter(c.keys, "\n") {
			if !strings.HasPrefix(l, "#") {
				body.WriteString(l)
			}
		}
		if body.String() != BuildKeys(p) {
			t.Errorf("%s: the key index is stale; regenerate the data", c.eco)
		}
		d := Load(c.eco)
		if d.Len() != len(p) {
			t.Errorf("%s: %d names indexed, %d listed", c.eco, d.Len(), len(p))
		}
		for _, name := range append(n, p[0].Name, p[len(p)-1].Name) {
			if m, ok := d.Check(name); ok {
				t.Errorf("%s: listed name %s flagged: %+v", c.eco, name, m)
			}
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"lodash", "lodahs", 1}, {"lodash", "lodash", 0}, {"table", "label", 3}, {"react", "reacr", 1}, {"react", "reactt", 1}, {"abc", "xyz", 3}} {
		if got := distance(c.a, c.b, 2); got != min(c.want, 3) {
			t.Errorf("distance(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"lodahs", "@typs/node", "python-dotnev", "", "@", "@/", "a-b-c", "rnrnrn"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 214 {
			return
		}
		Load(NPM).Check(s)
		Load(PyPI).Check(s)
	})
}

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }
