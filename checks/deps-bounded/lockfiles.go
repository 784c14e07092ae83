package depsbounded

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

var registryHosts = map[string]bool{"registry.npmjs.org": true, "registry.yarnpkg.com": true,
	"pypi.org": true, "files.pythonhosted.org": true}

// lockfiles reads where each locked package was resolved from: a host other
// than the ecosystem's registry fails, a git source without a commit fails,
// a registry entry without integrity warns.
func lockfiles(s *resolve.Subject) (int, []finding) {
	var out []finding
	n := 0
	at := func(file string, line int, fail bool, format string, args ...any) {
		out = append(out, finding{checks.At(file, line, 1, fmt.Sprintf(format, args...)), fail})
	}
	for _, name := range []string{"package-lock.json", "npm-shrinkwrap.json"} {
		data, ok := s.Inventory.Read(name)
		if !ok {
			continue
		}
		n++
		doc, err := manifest.ParseJSON(data)
		if err != nil {
			continue // manifest-present and the JSON checks report broken files
		}
		missing := 0
		first := 0
		visit := func(key string, v *manifest.JSON) {
			if v == nil || v.Kind != manifest.JSONObject || key == "" {
				return
			}
			if lk := v.Get("link"); lk != nil && lk.Kind == manifest.JSONBool && lk.Bool {
				return
			}
			res, _ := v.Get("resolved").String()
			switch {
			case res == "":
				if _, ok := v.Get("version").String(); ok && v.Get("inBundle") == nil {
					// Entries of a workspace or a bundled dependency carry no resolved URL.
					return
				}
			case strings.HasPrefix(res, "git"):
				if commitOf(res) == "" {
					at(name, v.Pos.Line, true, "%s is locked to git (%s) without a full commit", key, res)
				}
				return
			case strings.HasPrefix(res, "file:"):
				if !inside(res[5:]) {
					at(name, v.Pos.Line, true, "%s is locked to %s, outside the artifact", key, res)
				}
				return
			default:
				if h := host(res); !registryHosts[h] {
					at(name, v.Pos.Line, true, "%s is resolved from %s, not the npm registry", key, h)
					return
				}
			}
			if _, ok := v.Get("integrity").String(); !ok && res != "" {
				missing++
				if first == 0 {
					first = v.Pos.Line
				}
			}
		}
		if pk := doc.Root.Get("packages"); pk != nil && pk.Kind == manifest.JSONObject {
			for _, m := range pk.Members {
				visit(m.Key, m.Value)
			}
		} else {
			var walk func(v *manifest.JSON, depth int)
			walk = func(v *manifest.JSON, depth int) {
				if v == nil || v.Kind != manifest.JSONObject || depth > 32 {
					return
				}
				for _, m := range v.Members {
					visit(m.Key, m.Value)
					walk(m.Value.Get("dependencies"), depth+1)
				}
			}
			walk(doc.Root.Get("dependencies"), 0)
		}
		if missing > 0 {
			at(name, first, false, "%s locked without integrity", checks.Plural(missing, "registry entry"))
		}
	}
	for _, lf := range []struct {
		name string
		re   *lex.Pattern
		eco  string
	}{
		{"yarn.lock", yarnResolvedRe, "npm"},
		{"pnpm-lock.yaml", pnpmTarballRe, "npm"},
		{"uv.lock", uvSourceRe, "PyPI"},
		{"poetry.lock", poetrySourceRe, "PyPI"},
	} {
		text, ok := s.Inventory.Read(lf.name)
		if !ok {
			continue
		}
		n++
		for i, line := range strings.Split(string(text), "\n") {
			m := lf.re.Re().FindStringSubmatch(line)
			if m == nil {
				continue
			}
			kind, val := m[1], m[2]
			switch {
			case kind == "git" || strings.HasPrefix(val, "git+") || strings.HasPrefix(val, "git:"):
				if commitOf(val) == "" && !strings.Contains(val, "rev=") {
					at(lf.name, i+1, true, "a package is locked to git (%s) without a full commit", val)
				}
			case kind == "editable" || kind == "virtual" || kind == "directory" || kind == "path":
				if !inside(val) {
					at(lf.name, i+1, true, "a package is locked to %s, outside the artifact", val)
				}
			case strings.HasPrefix(val, "file:"):
				if !inside(val[5:]) {
					at(lf.name, i+1, true, "a package is locked to %s, outside the artifact", val)
				}
			default:
				if h := host(val); h != "" && !registryHosts[h] {
					at(lf.name, i+1, true, "a package is resolved from %s, not the %s registry", h, lf.eco)
				}
			}
		}
	}
	return n, out
}

var (
	yarnResolvedRe = lex.Lazy(`^\s+(resolved)\s+"?([^"\s]+)"?`)
	pnpmTarballRe  = lex.Lazy(`\b(tarball|repo):\s*['"]?([^'",}\s]+)`)
	uvSourceRe     = lex.Lazy(`^source\s*=\s*\{\s*(registry|git|url|editable|virtual|directory|path)\s*=\s*"([^"]*)"`)
	poetrySourceRe = lex.Lazy(`^(url)\s*=\s*"([^"]*)"`)
)

func host(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.ToLower(p.Hostname())
}
