package manifest

import (
	"errors"
	"strings"
	"testing"
)

func TestJSONPositionsAndDuplicates(t *testing.T) {
	src := "\xef\xbb\xbf{\n  \"name\": \"a\",\n  \"nested\": {\"k\": 1, \"k\": 2},\n  \"name\": \"b\"\n}"
	doc, err := ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Root.Get("name").Str; got != "b" {
		t.Errorf("last duplicate wins in Get: %q", got)
	}
	if len(doc.Duplicates) != 2 || doc.Duplicates[0].Key != "nested.k" || doc.Duplicates[0].Pos != (Pos{3, 22}) || doc.Duplicates[1].Pos != (Pos{4, 3}) {
		t.Errorf("duplicates %+v", doc.Duplicates)
	}
	if p := doc.Root.Get("nested").Pos; p != (Pos{3, 13}) {
		t.Errorf("nested at %v", p)
	}
}

func TestJSONErrors(t *testing.T) {
	var se *SyntaxError
	if _, err := ParseJSON([]byte("{\n  \"a\": 1,\n}")); !errors.As(err, &se) || se.Pos.Line != 3 {
		t.Errorf("trailing comma: %v", err)
	}
	if _, err := ParseJSON([]byte(`{"a":1} {"b":2}`)); err == nil {
		t.Error("two documents accepted")
	}
	deep := strings.Repeat("[", MaxJSONDepth+2) + strings.Repeat("]", MaxJSONDepth+2)
	var le *LimitError
	if _, err := ParseJSON([]byte(deep)); !errors.As(err, &le) {
		t.Errorf("depth: %v", err)
	}
	if _, err := ParseJSON(make([]byte, MaxManifestBytes+1)); !errors.As(err, &le) {
		t.Errorf("size: %v", err)
	}
}

func TestFrontmatter(t *testing.T) {
	fm, err := ParseFrontmatter([]byte("\xef\xbb\xbf---\r\nname: pdf\r\ndescription: \"a: b\"\r\nmetadata:\r\n  k: v\r\n---\r\n# Body\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, pos, ok := fm.String("description"); !ok || v != "a: b" || pos.Line != 3 {
		t.Errorf("description %q at %v", v, pos)
	}
	if fm.BodyLine != 7 || !strings.HasPrefix(string(fm.Body), "# Body") {
		t.Errorf("body at %d: %q", fm.BodyLine, fm.Body)
	}
	if _, err := ParseFrontmatter([]byte("# no frontmatter\n")); !errors.Is(err, ErrNoFrontmatter) {
		t.Errorf("no frontmatter: %v", err)
	}
	if _, err := ParseFrontmatter([]byte("---\nname: x\n")); err == nil {
		t.Error("unclosed frontmatter accepted")
	}
	var se *SyntaxError
	if _, err := ParseFrontmatter([]byte("---\nname: x\nbad: [\n---\n")); !errors.As(err, &se) || se.Pos.Line < 2 {
		t.Errorf("YAML error line: %v", err)
	}
	fm, err = ParseFrontmatter([]byte("---\nname: a\nname: b\n---\n"))
	if err != nil || len(fm.Duplicates) != 1 || fm.Duplicates[0].Pos.Line != 3 {
		t.Errorf("duplicate: %v %+v", err, fm)
	}
}

// TestFrontmatterDocumentEnd: only `---` closes the block, as loaders
// read it; a `...` inside is a YAML document end, and text after it a
// second document.
func TestFrontmatterDocumentEnd(t *testing.T) {
	fm, err := ParseFrontmatter([]byte("---\nname: x\ndescription: y\n...\n---\nbody\n"))
	if err != nil || fm.BodyLine != 6 {
		t.Errorf("'...' right before '---': %v", err)
	}
	var se *SyntaxError
	if _, err := ParseFrontmatter([]byte("---\nname: x\ndescription: y\n...\ndescription: z\n---\n")); !errors.As(err, &se) {
		t.Errorf("text after '...': %v, want a syntax error", err)
	}
	if _, err := ParseFrontmatter([]byte("---\nname: x\ndescription: y\n...\nbody\n")); !errors.As(err, &se) || se.Pos.Line != 4 || !strings.Contains(se.Msg, "'...'") {
		t.Errorf("closed with '...' only: %v", err)
	}
}

func TestFrontmatterAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na: &a [x,x,x,x,x,x,x,x,x,x]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString(n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 9) + "*" + prev + "]\n")
		prev = n
	}
	b.WriteString("---\n")
	_, err := ParseFrontmatter([]byte(b.String()))
	if err == nil {
		t.Fatal("alias bomb accepted")
	}
	var le *LimitError
	var se *SyntaxError
	if !errors.As(err, &le) && !errors.As(err, &se) {
		t.Fatalf("alias bomb: %T %v", err, err)
	}
}

func TestTOML(t *testing.T) {
	doc, err := ParseTOML([]byte("[project]\nname = \"x\"\n\n[project.scripts]\nrun = \"x.main:main\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Pos("project.scripts.run") != (Pos{5, 1}) || doc.Pos("project.name") != (Pos{2, 1}) {
		t.Errorf("positions %v %v", doc.Pos("project.scripts.run"), doc.Pos("project.name"))
	}
	var se *SyntaxError
	if _, err := ParseTOML([]byte("[a]\nk = 1\nk = 2\n")); !errors.As(err, &se) || se.Pos.Line != 3 {
		t.Errorf("duplicate key: %v", err)
	}
}

func TestRequirements(t *testing.T) {
	r, err := ParseRequirements([]byte("# c\nMCP[cli]==1.9 ; python_version>'3.9'\nhttpx \\\n  >=0.27\n-r other.txt\n--index-url https://x.example/simple\npkg @ https://x.example/p.whl\n./local\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Has("mcp") || !r.Has("HTTPX") || len(r.Includes) != 1 || len(r.Options) != 1 {
		t.Fatalf("%+v", r)
	}
	if q := r.Requirements[1]; q.Name != "httpx" || q.Spec != ">=0.27" || q.Pos.Line != 3 {
		t.Errorf("continuation: %+v", q)
	}
	if q := r.Requirements[2]; q.URL != "https://x.example/p.whl" {
		t.Errorf("direct ref: %+v", q)
	}
	if NormalizePyName("My_Server.Name") != "my-server-name" {
		t.Error("PEP 503")
	}
}

func TestTypedReaders(t *testing.T) {
	p, err := ParsePackageJSON([]byte(`{"name":"@a/b","bin":"cli.js","exports":{".":{"import":"./esm.js"}},"scripts":{"start":"node ."},"dependencies":{"x":"1"}}`))
	if err != nil || p.Bin[0].Name != "@a/b" || p.ExportsDot.Value != "./esm.js" || !p.HasDependency("x") || p.Scripts["start"].Value != "node ." {
		t.Errorf("package.json: %v %+v", err, p)
	}
	g, err := ParseGoMod([]byte("module example.com/x/v3\n\ngo 1.24\n\nrequire github.com/modelcontextprotocol/go-sdk v1.0.0\n"))
	if err != nil || g.Module.Value != "example.com/x/v3" || g.Require("github.com/modelcontextprotocol/go-sdk").Pos.Line != 5 {
		t.Errorf("go.mod: %v %+v", err, g)
	}
	h, err := ParseHooks([]byte(`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"echo"}]}]}}`))
	if err != nil || len(h.Hooks) != 1 || h.Hooks[0].Event != "PreToolUse" || h.Hooks[0].Command != "echo" {
		t.Errorf("hooks: %v %+v", err, h)
	}
	s, err := ParseServerJSON([]byte(`{"name":"io.github.a/b","version":"1.0.0","packages":[{"registryType":"npm","identifier":"b"}],"remotes":[{"url":"https://x.example"}]}`))
	if err != nil || s.Packages[0].Identifier != "b" || len(s.Remotes) != 1 {
		t.Errorf("server.json: %v %+v", err, s)
	}
	m, err := ParseMCPConfig([]byte(`{"mcpServers":{"db":{"command":"npx","args":["-y","db@1"]}}}`))
	if err != nil || m.Servers[0].Name != "db" || m.Servers[0].Args[1] != "db@1" {
		t.Errorf(".mcp.json: %v %+v", err, m)
	}
	pl, err := ParsePlugin([]byte(`{"name":"p","commands":["./a.md"],"hooks":{"Stop":[]}}`))
	if err != nil || pl.Components["commands"][0].Value != "./a.md" || pl.Inline["hooks"] == nil {
		t.Errorf("plugin.json: %v %+v", err, pl)
	}
	c, err := ParseCargo([]byte("[package]\nname = \"a_b\"\nversion = \"0.1.0\"\n\n[[bin]]\nname = \"x\"\npath = \"src/x.rs\"\n\n[dependencies]\nrmcp = \"0.3\"\n"))
	if err != nil || c.Name.Value != "a_b" || c.Bins[0].Path != "src/x.rs" || c.Dependencies[0].Name != "rmcp" {
		t.Errorf("Cargo.toml: %v %+v", err, c)
	}
	a, err := ParseAgentJSON([]byte(`{"name":"a","system_prompt":"x"}`))
	if err != nil || a.Instructions.Value != "x" {
		t.Errorf("agent.json: %v %+v", err, a)
	}
}
