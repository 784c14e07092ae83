package mcp

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
)

func TestInterpolated(t *testing.T) {
	for _, tc := range []struct {
		lang, src, want string
		complete        bool
	}{
		{"python", `NOTE = "Read only."` + "\n" + `X = f"List {ROOT!r:>10} files. {NOTE}"`, "List " + Hole + " files. Read only.", false},
		{"python", `NOTE = "Read only."` + "\n" + `X = f"Files. {NOTE if RO else ''} {{literal}}"`, "Files. Read only. {literal}", true},
		{"python", `X = rf"C:\dir\{name}"`, `C:\dir\` + Hole, false},
		{"python", `X = f"""a\tb {"}"}"""`, "a\tb }", true},
		{"js", "const P = \"p1\";\nconst X = `Open in ${P}; ${env.HOME ? P : \"none\"} \\${x}`;", "Open in p1; p1 none ${x}", true},
		{"js", "const X = `Body ${`nested ${y}`} end`;", "Body " + Hole + " end", false},
	} {
		f := fold.Parse(tc.lang, tc.src)
		i := len(f.Toks) - 1
		for f.Toks[i].Kind != lex.String && f.Toks[i].Kind != lex.Template {
			i--
		}
		got, complete, ok := interpolated(f, f.Toks[i:i+1])
		if !ok || got != tc.want || complete != tc.complete {
			t.Errorf("%s: got %q complete=%v ok=%v; want %q complete=%v", tc.src, got, complete, ok, tc.want, tc.complete)
		}
	}
	// Not an interpolating literal.
	f := fold.Parse("python", `X = "plain {x}"`)
	if _, _, ok := interpolated(f, f.Toks[2:3]); ok {
		t.Error("a plain string is not read as an f-string")
	}
	// Unbalanced braces and too many substitutions are refused, not guessed.
	for _, src := range []string{`X = f"a {b"`, `X = f"` + strings.Repeat("{a}", maxInterp+1) + `"`} {
		f := fold.Parse("python", src)
		if _, _, ok := interpolated(f, f.Toks[2:3]); ok {
			t.Errorf("%s: read", src)
		}
	}
}

func FuzzInterpolated(f *testing.F) {
	f.Add("python", `X = f"a {b} {{c}} {d if e else 'f'}"`)
	f.Add("js", "const X = `a ${b} ${c ? `d` : 'e'}`")
	f.Fuzz(func(t *testing.T, lang, src string) {
		if lang != "js" {
			lang = "python"
		}
		p := fold.Parse(lang, src)
		for i := range p.Toks {
			if s, _, ok := interpolated(p, p.Toks[i:i+1]); ok && len(s) > fold.MaxOutput+len(src) {
				t.Fatalf("output of %d bytes", len(s))
			}
		}
	})
}

// A description reaches a registration through a helper's parameter, a
// local's branches, or a docstring replaced after registration.
func TestDescriptionFlows(t *testing.T) {
	s := discover(t, "python", map[string]string{"server.py": `from mcp.server.fastmcp import FastMCP
HELP = "Adds numbers."
LOUD = "Adds numbers loudly."

def register(server, *, text):
    @server.tool(name="add", description=text)
    def add(a: int, b: int) -> int:
        return a + b

def build(pro):
    server = FastMCP("x")
    desc = LOUD if pro else HELP
    @server.tool(name="sub", description=desc)
    def sub(a: int, b: int) -> int:
        return a - b
    register(server, text=HELP)
    return server

@server.tool()
def mul(a: int, b: int) -> int:
    """Multiplies."""
    return a * b

mul.__doc__ = "Multiplies, then " + HELP
`})
	got := map[string][]string{}
	for _, x := range s.Tools {
		got[x.Name] = append(got[x.Name], x.Description)
	}
	want := map[string][]string{"add": {"Adds numbers."}, "sub": {"Adds numbers loudly.\n\nAdds numbers."}, "mul": {"Multiplies.", "Multiplies, then Adds numbers."}}
	for name, w := range want {
		if strings.Join(got[name], "|") != strings.Join(w, "|") {
			t.Errorf("%s: descriptions %q, want %q", name, got[name], w)
		}
	}
	if len(s.Unresolved) != 0 {
		t.Errorf("unresolved: %+v", s.Unresolved)
	}
}

// A description read from an object's field resolves to what the file's
// own constructions give that field.
func TestDescriptionFromField(t *testing.T) {
	s := discover(t, "python", map[string]string{"server.py": `from mcp.server.fastmcp import FastMCP
A = "First text."
B = "Second text."
def items(n):
    return [Item(description=A)] if n else [Item(description=B)]
def build():
    server = FastMCP("x")
    it = items(1)[0]
    @server.tool(name="t", description=it.description)
    def t() -> str:
        return "ok"
`})
	if len(s.Tools) != 1 || s.Tools[0].Description != "First text.\n\nSecond text." {
		t.Fatalf("tools %+v", s.Tools)
	}
}

// A handler literal that never names a parameter leaves it unused.
func TestUnusedParams(t *testing.T) {
	js := discover(t, "js", map[string]string{"index.js": `server.tool("define", "Defines a term.", { term: z.string(), caller: z.string().describe("who calls") }, async ({ term }) => ({ content: [{ type: "text", text: lookup(term) }] }));
server.tool("named", "Named handler.", { x: z.string() }, handler);`})
	py := discover(t, "python", map[string]string{"server.py": `@mcp.tool()
def define(caller: str, term: str) -> str:
    """Defines a term.

    Args:
        caller: who calls
        term: the term
    """
    return lookup(term)
`})
	for _, s := range []*Surface{js, py} {
		d := tool(t, s, "define")
		for _, p := range d.Params {
			if p.Unused != (p.Name == "caller") {
				t.Errorf("%s: unused %v", p.Name, p.Unused)
			}
			if p.Name == "caller" && p.Description != "who calls" {
				t.Errorf("caller's description %q", p.Description)
			}
		}
	}
	for _, p := range tool(t, js, "named").Params {
		if p.Unused {
			t.Errorf("a named handler's parameter %s marked unused", p.Name)
		}
	}
}
