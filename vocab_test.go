package repo

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The concepts checks/vocab owns (ANALYSIS §3). A literal list that names
// one of them outside the vocabulary is a second definition of it.
var (
	// substrings (any case) that name a credential store, a network API,
	// a metadata or a capture host
	vocabSubstrings = []string{
		// credential stores
		".ssh", "id_rsa", "id_ed25519", "id_ecdsa", ".aws", ".netrc", ".npmrc", ".pypirc", ".gnupg", ".git-credentials",
		".kube/config", ".docker/config", "gcloud", "/etc/shadow", "authorized_keys", "/credentials", "credentials.json",
		"wallet.dat", "login data", "logins.json", "key4.db", ".keychain", "library/keychains", "_history",
		// network APIs
		"requests.post", "requests.get", "urlopen", "urllib", "httpx", "axios", "xmlhttprequest", "http.post",
		"websocket", "invoke-webrequest", "downloadstring", "net.webclient",
		// metadata and capture hosts
		"169.254.169.254", "metadata.google.internal", "webhook.site", "ngrok",
	}
	// whole words that name a network API or a shell fetcher or sender
	vocabWords = map[string]bool{
		"curl": true, "wget": true, "fetch": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
		"telnet": true, "scp": true, "sftp": true, "ssh": true, "aria2c": true, "iwr": true, "irm": true,
	}
	wordSplit  = regexp.MustCompile(`[^a-z0-9_.-]+`)
	identSplit = regexp.MustCompile(`[^A-Za-z0-9_]+`)
	// secret names: an environment variable's shape (GITHUB_TOKEN,
	// JWT_SECRET, OPENAI_API_KEY) or a settings key's (api_key,
	// client_secret, db_password)
	upperSecret = []string{"TOKEN", "SECRET", "API_KEY", "APIKEY", "PASSWORD", "PASSWD", "CREDENTIAL"}
	lowerSecret = []string{"_token", "_secret", "api_key", "apikey", "_password", "access_key"}
)

// vocabExempt are the trees that are the vocabulary and the model built
// from it, generated code, and what is clearly none of the vocabulary's
// concepts.
func vocabExempt(p string) bool {
	switch {
	case strings.HasPrefix(p, "checks/vocab/"), strings.HasPrefix(p, "checks/facts/"), strings.HasPrefix(p, "checks/analysis/"):
		return true
	case p == "checks/internal/secrets/rules_gen.go":
		return true // gitleaks' rules, generated with their own examples
	case strings.HasPrefix(p, "checks/checktest/"):
		return true // fixture scaffolding: the placeholder secrets fixtures are written with
	case p == "behave/model/providers.go":
		return true // the variables attest's own model providers read their keys from: configuration, not a classifier
	}
	return false
}

// notYetMigrated are files that still keep lists of their own, waiting for
// their checks to move onto the model and the vocabulary (issue 20). They
// are not exemptions: each is reported, and the test fails when one is
// clean, so that it leaves this list, and for any file not on it. Every
// check and the behavioral scan have moved: it is empty, and a file that
// defines a list again fails.
var notYetMigrated = map[string]string{}

// namesConcept says which vocabulary concept a literal's text names ("" for
// none). A pattern's escapes are dropped first, so `\.ssh/` reads .ssh/.
func namesConcept(s string) string {
	l := strings.ToLower(strings.ReplaceAll(s, `\`, ""))
	for _, m := range vocabSubstrings {
		if strings.Contains(l, m) {
			return m
		}
	}
	for _, w := range wordSplit.Split(l, -1) {
		if vocabWords[strings.Trim(w, ".-")] {
			return strings.Trim(w, ".-")
		}
	}
	for _, w := range identSplit.Split(strings.ReplaceAll(s, `\`, " "), -1) {
		switch {
		case w != "" && w == strings.ToUpper(w):
			for _, m := range upperSecret {
				if strings.Contains(w, m) {
					return w
				}
			}
		case w == strings.ToLower(w):
			for _, m := range lowerSecret {
				if strings.HasSuffix(w, m) {
					return w
				}
			}
		}
	}
	return ""
}

// patternCalls compile or hold a pattern: regexp.MustCompile(`…`),
// lex.Lazy(`…`).
var patternCalls = map[string]bool{"MustCompile": true, "Compile": true, "MustCompilePOSIX": true, "CompilePOSIX": true, "Lazy": true}

func stringLit(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := stringLit(x.X)
		b, ok2 := stringLit(x.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return stringLit(x.X)
	}
	return "", false
}

// listStrings collects the string literals a list-shaped literal holds:
// its elements, a map's keys and values, and those of untyped element
// literals ([]struct{…}{{"a", "b"}}).
func listStrings(cl *ast.CompositeLit) []string {
	var out []string
	var elem func(e ast.Expr)
	elem = func(e ast.Expr) {
		if s, ok := stringLit(e); ok {
			out = append(out, s)
			return
		}
		if c, ok := e.(*ast.CompositeLit); ok && c.Type == nil {
			for _, x := range c.Elts {
				elem(x)
			}
		}
	}
	for _, e := range cl.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			elem(kv.Key)
			elem(kv.Value)
			continue
		}
		elem(e)
	}
	return out
}

// vocabFindings lists the places in one file that define a vocabulary
// concept of their own.
func vocabFindings(fset *token.FileSet, f *ast.File) []string {
	var out []string
	report := func(n ast.Node, what, concept string) {
		out = append(out, fmt.Sprintf("%s: %s names %q", fset.Position(n.Pos()), what, concept))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			switch x.Type.(type) {
			case *ast.ArrayType, *ast.MapType:
			default:
				return true
			}
			ss := listStrings(x)
			if len(ss) < 2 {
				return true
			}
			for _, s := range ss {
				if c := namesConcept(s); c != "" {
					report(x, "a list literal", c)
					break
				}
			}
		case *ast.CaseClause:
			// switch x { case "169.254.169.254", "metadata": … } is a list too
			var ss []string
			for _, e := range x.List {
				if s, ok := stringLit(e); ok {
					ss = append(ss, s)
				}
			}
			if len(ss) < 2 {
				return true
			}
			for _, s := range ss {
				if c := namesConcept(s); c != "" {
					report(x, "a case list", c)
					break
				}
			}
		case *ast.CallExpr:
			name := ""
			switch fn := x.Fun.(type) {
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			case *ast.Ident:
				name = fn.Name
			}
			if !patternCalls[name] || len(x.Args) == 0 {
				return true
			}
			if s, ok := stringLit(x.Args[0]); ok {
				if c := namesConcept(s); c != "" {
					report(x, "a pattern", c)
				}
			}
		}
		return true
	})
	return out
}

// TestOneVocabulary: no check and no part of the behavioral scan keeps its
// own list of credential stores, secret names, network APIs or shell
// fetchers; they ask checks/vocab, whose entries carry the examples that
// its tests run (issue 20, ANALYSIS §3). A Doc or Remediation constant is
// prose, not a list, and is not read.
func TestOneVocabulary(t *testing.T) {
	files, found, err := vocabWalk(".")
	if err != nil {
		t.Fatal(err)
	}
	for p, ms := range found {
		for _, m := range ms {
			if why, ok := notYetMigrated[p]; ok {
				t.Logf("not yet migrated (%s): %s", why, m)
				continue
			}
			t.Errorf("%s: define it in checks/vocab/data with examples and ask vocab", m)
		}
	}
	for p := range notYetMigrated {
		if len(found[p]) == 0 {
			t.Errorf("%s keeps no list of its own any more: take it off notYetMigrated", p)
		}
	}
	if files < 50 {
		t.Fatalf("read %d files; is the walk broken?", files)
	}
}

// vocabWalk reads the non-test Go files of checks and behave under dir and
// returns how many it read and the findings of each (by slash path from
// dir).
func vocabWalk(dir string) (int, map[string][]string, error) {
	files := 0
	found := map[string][]string{}
	for _, root := range []string{"checks", "behave"} {
		err := filepath.WalkDir(filepath.Join(dir, root), func(full string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(dir, full)
			if err != nil {
				return err
			}
			p := filepath.ToSlash(rel)
			if d.IsDir() {
				if d.Name() == "testdata" || vocabExempt(p+"/") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || vocabExempt(p) {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, full, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			files++
			if ms := vocabFindings(fset, f); len(ms) > 0 {
				found[p] = ms
			}
			return nil
		})
		if err != nil {
			return files, found, err
		}
	}
	return files, found, nil
}

// The walk reports a list put back into a check or the behavioral scan,
// and leaves the vocabulary, the model and tests alone.
func TestOneVocabularyWalk(t *testing.T) {
	dir := t.TempDir()
	for p, src := range map[string]string{
		"checks/some-check/some_check.go":      "package x\nvar stores = []string{\"~/.ssh\", \"~/.aws/credentials\"}\n",
		"behave/scan2.go":                      "package behave\nvar fetchers = map[string]bool{\"curl\": true, \"wget\": true}\n",
		"checks/some-check/some_check_test.go": "package x\nvar stores = []string{\"~/.ssh\", \"~/.aws\"}\n",
		"checks/vocab/tables.go":               "package vocab\nvar stores = []string{\"~/.ssh\", \"~/.aws\"}\n",
		"checks/clean/clean.go":                "package clean\nvar tools = []string{\"tsc\", \"esbuild\"}\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, found, err := vocabWalk(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range found {
		got = append(got, p)
	}
	slices.Sort(got)
	if want := []string{"behave/scan2.go", "checks/some-check/some_check.go"}; !slices.Equal(got, want) {
		t.Errorf("the walk reports %v, want %v", got, want)
	}
}

// The detector itself: each shape it must see, and what it must leave.
func TestOneVocabularyDetector(t *testing.T) {
	for src, want := range map[string]bool{
		`var a = []string{".ssh", "id_"}`:                                         true,
		`var a = map[string]bool{"curl": true, "wget": true}`:                     true,
		`var a = map[string]bool{"nc": true, "ls": true}`:                         true,
		`var a = []struct{ k, v string }{{"x", "requests.post"}}`:                 true,
		`var a = regexp.MustCompile(` + "`" + `(^|/)\.aws/` + "`" + `)`:           true,
		`var a = lex.Lazy(` + "`" + `\b(urlopen|x)\b` + "`" + `)`:                 true,
		`func f(h string) { switch h { case "169.254.169.254", "x": } }`:          true,
		`var a = []string{"tsc", "tsup", "esbuild"}`:                              false,
		`var a = []string{".ssh"}`:                                                false, // one element is not a list
		`const Doc = "reads ~/.ssh and sends it with curl or wget"`:               false,
		`var c = Check{ID: "no-secret-exfiltration", Title: "x"}`:                 false,
		`var a = []string{"sync", "once"}`:                                        false, // "nc" only as a word
		`var a = regexp.MustCompile(` + "`" + `^[a-z]+$` + "`" + `)`:              false,
		`func f(h string) bool { return strings.Contains(h, "authorized_keys") }`: false,
		`var a = []string{"GITHUB_TOKEN", "LOG_LEVEL"}`:                           true,
		`var a = map[string]bool{"client_secret": true, "name": true}`:            true,
		`var a = []string{"input_tokens", "output_tokens"}`:                       false, // counts, not secrets
		`var a = []string{"apiKeyHelper", "statusLine"}`:                          false, // settings keys
		`var a = lex.Lazy(` + "`" + `keep (this|it) (hidden|secret)` + "`" + `)`:  false, // prose, not a secret name
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package x\n"+src, 0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := len(vocabFindings(fset, f)) > 0; got != want {
			t.Errorf("%s: flagged %v, want %v", src, got, want)
		}
	}
}
