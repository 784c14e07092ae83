package lex

import (
	"testing"
)

func kinds(toks []Token) map[string]Kind {
	m := map[string]Kind{}
	for _, t := range toks {
		m[t.Text] = t.Kind
	}
	return m
}

func TestJSStringsCommentsTemplatesRegex(t *testing.T) {
	src := "// import x from 'y'\nconst a = \"import z\"; /* export */\nconst t = `import ${ `nested ${b}` } export`;\nconst r = /export\\//g, d = a / 2;\nimport {q} from \"./q.js\"\n"
	toks := Code(JS(src))
	var imports []Token
	for _, tk := range toks {
		if tk.Kind == Ident && (tk.Text == "import" || tk.Text == "export") {
			imports = append(imports, tk)
		}
	}
	if len(imports) != 1 || imports[0].Line != 5 || !imports[0].LineStart {
		t.Fatalf("want exactly the import on line 5, got %+v", imports)
	}
	k := kinds(toks)
	if k["/export\\//g"] != Regex {
		t.Errorf("regex not recognised: %+v", toks)
	}
	if k["/"] != Punct {
		t.Errorf("division taken for a regex")
	}
}

func TestPythonStrings(t *testing.T) {
	src := "x = rb'''a\n__name__\n'''  # if __name__ == '__main__'\nif __name__ == \"__main__\":\n    mcp.run()\n"
	toks := Code(Python(src))
	var names []Token
	for _, tk := range toks {
		if tk.Text == "__name__" {
			names = append(names, tk)
		}
	}
	if len(names) != 1 || names[0].Line != 4 {
		t.Fatalf("want one __name__ on line 4, got %+v", names)
	}
	if Unquote(`f"abc"`) != "abc" || Unquote(`'''x'''`) != "x" {
		t.Error("Unquote")
	}
}

func FuzzJS(f *testing.F) {
	f.Add([]byte("const a = `x${`y${z}`}` / 2 // c\n/re/g"))
	f.Add([]byte("`${"))
	f.Add([]byte("'\\"))
	f.Fuzz(func(t *testing.T, src []byte) {
		toks := JS(string(src))
		for _, tk := range toks {
			if tk.Line < 1 || tk.Col < 1 {
				t.Fatalf("bad position %+v", tk)
			}
		}
	})
}

func FuzzPython(f *testing.F) {
	f.Add([]byte("x = f'''{a}'''\n# c\nif __name__ == '__main__':\n  run()"))
	f.Add([]byte("'''"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, tk := range Python(string(src)) {
			if tk.Line < 1 || tk.Col < 1 {
				t.Fatalf("bad position %+v", tk)
			}
		}
	})
}
