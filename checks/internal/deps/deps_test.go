package deps

import (
	"testing"
)

func TestLaunched(t *testing.T) {
	for _, c := range []struct {
		cmd             string
		args            []string
		eco, name, spec string
		ok              bool
	}{
		{"npx", []string{"-y", "@scope/pkg@1.2.3", "--flag"}, NPM, "@scope/pkg", "1.2.3", true},
		{"npx", []string{"--registry", "https://r.example", "pkg"}, NPM, "pkg", "", true},
		{"npx", []string{"-p", "tool@2", "tool-cli"}, NPM, "tool", "2", true},
		{"/usr/local/bin/npx", []string{"--yes", "pkg@latest"}, NPM, "pkg", "latest", true},
		{"uvx", []string{"--from", "mcp-server-git==0.6.2", "mcp-server-git"}, PyPI, "mcp-server-git", "==0.6.2", true},
		{"uvx", []string{"--python", "3.12", "mcp-server-time"}, PyPI, "mcp-server-time", "", true},
		{"pnpm", []string{"dlx", "create-x@1"}, NPM, "create-x", "1", true},
		{"uv", []string{"tool", "run", "ruff@0.5.0"}, PyPI, "ruff", "0.5.0", true},
		{"pipx", []string{"run", "black"}, PyPI, "black", "", true},
		{"node", []string{"index.js"}, "", "", "", false},
		{"npx", []string{"-y"}, "", "", "", false},
	} {
		d, ok := Launched(c.cmd, c.args)
		if ok != c.ok || ok && (d.Ecosystem != c.eco || d.Name != c.name || d.Spec != c.spec) {
			t.Errorf("%s %v: got %+v %v", c.cmd, c.args, d, ok)
		}
	}
}

func TestInCommand(t *testing.T) {
	ds := InCommand(`cd "$ROOT" && npx -y prettier@3.3.3 --write "$FILE"; uvx ruff check .`)
	if len(ds) != 2 || ds[0].Name != "prettier" || ds[0].Spec != "3.3.3" || ds[1].Name != "ruff" {
		t.Fatalf("got %+v", ds)
	}
}

func TestInstructions(t *testing.T) {
	text := "Install:\n\n```\npip install -r requirements.txt pypdf==4.2.0 'pillow>=10'\nnpm i -D @types/node typescript@5 && echo done\n```\n\nRun `uv add httpx` then.\nWe never install anything else.\n"
	got := instructions(text)
	want := []struct{ eco, name, spec string }{{PyPI, "pypdf", "==4.2.0"}, {PyPI, "pillow", ">=10"}, {NPM, "@types/node", ""}, {NPM, "typescript", "5"}, {PyPI, "httpx", ""}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		if got[i].Ecosystem != w.eco || got[i].Name != w.name || got[i].Spec != w.spec {
			t.Errorf("%d: got %+v, want %+v", i, got[i], w)
		}
	}
	if got[0].Line != 4 || got[4].Line != 8 {
		t.Errorf("lines %d, %d", got[0].Line, got[4].Line)
	}
}

func FuzzInstructions(f *testing.F) {
	for _, s := range []string{"pip install x", "npm i -D @a/b@1 c", "uv add 'y[extra]>=1'", "pip install -r", "```\nyarn global add z\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1<<16 {
			return
		}
		for _, d := range instructions(s) {
			if d.Name == "" || d.Line < 1 {
				t.Fatalf("bad dep %+v", d)
			}
		}
		InCommand(s)
	})
}

func TestInstallRequires(t *testing.T) {
	ds := installRequires("from setuptools import setup\nsetup(\n    name='x',\n    install_requires=[\n        'requests>=2.0',\n        \"reqeusts==1.0\",\n    ],\n)\n")
	if len(ds) != 2 || ds[0].Name != "requests" || ds[0].Spec != ">=2.0" || ds[1].Name != "reqeusts" || ds[1].Line != 6 {
		t.Fatalf("got %+v", ds)
	}
}

// installerLines are install commands of every form installRe reads.
var installerLines = []string{
	"pip install requests==2.31.0", "pip3 install flask", "python -m pip install rich", "python3 -m pip install x",
	"uv pip install httpx", "uv add pydantic", "poetry add typer", "pipx install black",
	"npm i left-pad", "npm install express@4", "npm add zod", "pnpm add vite", "yarn add react", "yarn global add tsx",
	"bun add hono", "bun i elysia", "run `npm install -g @scope/tool` first",
}

// TestInstallers: every line the pattern reads holds an installer word, so
// skipping lines without one skips no dependency.
func TestInstallers(t *testing.T) {
	for _, l := range installerLines {
		if installRe.Re().FindStringIndex(l) == nil {
			t.Errorf("%q: the pattern no longer reads it; the case exercises nothing", l)
		}
		if !mentionsInstaller(l) {
			t.Errorf("%q: the pattern reads it, the line filter skips it", l)
		}
	}
	if got := instructions("Then run:\n\n    yarn add react@18.2.0\n"); len(got) != 1 || got[0].Name != "react" {
		t.Errorf("yarn add react@18.2.0: %+v", got)
	}
	if got := instructions("Add the install step to your notes.\n"); len(got) != 0 {
		t.Errorf("prose that mentions install: %+v", got)
	}
	if got := instructions("1. Read the output (pip install failure, import error, service connection error).\n"); len(got) != 0 {
		t.Errorf("a sentence listing errors: %+v", got)
	}
	if got := instructions("pip install 'numpy>=1,<2' reqests\n"); len(got) != 2 || got[1].Name != "reqests" {
		t.Errorf("a quoted range with a comma: %+v", got)
	}
}

func FuzzInstallers(f *testing.F) {
	for _, l := range installerLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 2048 {
			return
		}
		if installRe.Re().MatchString(line) && !mentionsInstaller(line) {
			t.Fatalf("%q: the pattern reads it, the line filter skips it", line)
		}
	})
}
