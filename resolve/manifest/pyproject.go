package manifest

import (
	"fmt"
	"sort"
)

// Pyproject is the subset of pyproject.toml the checks read, from
// [project] (PEP 621) or, failing that, [tool.poetry].
type Pyproject struct {
	Doc *TOMLDoc

	Name, Version, Description, License *StringField
	DynamicVersion                      bool
	Scripts                             []NamedPath // [project.scripts] / [tool.poetry.scripts]
	URLs                                []NamedPath // [project.urls], poetry homepage/repository
	Dependencies                        []Dependency
	BuildBackend                        string
}

// ParsePyproject parses pyproject.toml.
func ParsePyproject(data []byte) (*Pyproject, error) {
	doc, err := ParseTOML(data)
	if err != nil {
		return nil, err
	}
	p := &Pyproject{Doc: doc}
	field := func(paths ...string) *StringField {
		for _, path := range paths {
			if s, ok := doc.String(path); ok {
				return &StringField{Value: s, Pos: doc.Pos(path)}
			}
		}
		return nil
	}
	p.Name = field("project.name", "tool.poetry.name")
	p.Version = field("project.version", "tool.poetry.version")
	p.Description = field("project.description", "tool.poetry.description")
	p.License = field("project.license", "project.license.text", "project.license.file", "tool.poetry.license")
	if dyn, ok := doc.Get("project.dynamic").([]any); ok {
		for _, d := range dyn {
			if d == "version" {
				p.DynamicVersion = true
			}
		}
	}
	for _, base := range []string{"project.scripts", "project.gui-scripts", "tool.poetry.scripts"} {
		p.Scripts = append(p.Scripts, namedStrings(doc, base)...)
	}
	p.URLs = namedStrings(doc, "project.urls")
	for _, k := range []string{"homepage", "repository", "documentation"} {
		if f := field("tool.poetry." + k); f != nil {
			p.URLs = append(p.URLs, NamedPath{Name: k, Path: f.Value, Pos: f.Pos})
		}
	}
	if deps, ok := doc.Get("project.dependencies").([]any); ok {
		pos := doc.Pos("project.dependencies")
		for _, d := range deps {
			if s, ok := d.(string); ok {
				if r, ok := parseRequirement(s); ok {
					r.Pos = pos
					p.Dependencies = append(p.Dependencies, Dependency{Name: r.Name, Spec: r.Spec, Group: "project.dependencies", Pos: pos})
				}
			}
		}
	}
	for _, n := range namedAny(doc, "tool.poetry.dependencies") {
		if n.Name == "python" {
			continue
		}
		p.Dependencies = append(p.Dependencies, Dependency{Name: n.Name, Spec: n.Path, Group: "tool.poetry.dependencies", Pos: n.Pos})
	}
	p.BuildBackend, _ = doc.String("build-system.build-backend")
	return p, nil
}

// namedStrings lists the string members of a table, sorted by name.
func namedStrings(doc *TOMLDoc, base string) []NamedPath {
	var out []NamedPath
	for _, n := range namedAny(doc, base) {
		out = append(out, n)
	}
	return out
}

func namedAny(doc *TOMLDoc, base string) []NamedPath {
	t := doc.Table(base)
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []NamedPath
	for _, k := range names {
		var v string
		switch x := t[k].(type) {
		case string:
			v = x
		case map[string]any:
			if s, ok := x["version"].(string); ok {
				v = s
			}
		default:
			v = fmt.Sprint(x)
		}
		out = append(out, NamedPath{Name: k, Path: v, Pos: doc.Pos(base + "." + k)})
	}
	return out
}
