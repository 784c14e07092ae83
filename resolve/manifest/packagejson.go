package manifest

import "sort"

// PackageJSON is the subset of an npm package.json that the checks read.
type PackageJSON struct {
	Doc *JSONDoc

	Name, Version, Description, License, Type, Main, Homepage *StringField
	Repository                                                *StringField
	// Bin maps command name to path; a string bin is keyed by the package name.
	Bin []NamedPath
	// ExportsDot is exports["."] (or a string exports), resolved to a path
	// through the conditions import/require/default/node.
	ExportsDot *StringField
	Scripts    map[string]StringField
	Files      []StringAt
	// Dependencies merges dependencies, devDependencies, peerDependencies
	// and optionalDependencies.
	Dependencies []Dependency
	Workspaces   []StringAt
}

// StringField is a string value with its position.
type StringField struct {
	Value string
	Pos   Pos
}

// NamedPath is a name mapped to a path, such as a bin entry.
type NamedPath struct {
	Name string
	Path string
	Pos  Pos
}

// Dependency is a declared dependency.
type Dependency struct {
	Name  string
	Spec  string
	Group string // dependencies, devDependencies, ...
	Pos   Pos
}

func stringField(v *JSON) *StringField {
	if s, ok := v.String(); ok {
		return &StringField{Value: s, Pos: v.Pos}
	}
	return nil
}

// stringOr reads a field that is either a string or an object holding the
// string under key (package.json "license" and "repository").
func stringOr(v *JSON, key string) *StringField {
	if v != nil && v.Kind == JSONObject {
		return stringField(v.Get(key))
	}
	return stringField(v)
}

// parseObject parses a manifest whose top level must be an object.
func parseObject(data []byte, what string) (*JSONDoc, error) {
	doc, err := ParseJSON(data)
	if err != nil {
		return nil, err
	}
	if doc.Root.Kind != JSONObject {
		return nil, &SyntaxError{Pos: doc.Root.Pos, Msg: what + " is not a JSON object"}
	}
	return doc, nil
}

// ParsePackageJSON parses package.json.
func ParsePackageJSON(data []byte) (*PackageJSON, error) {
	doc, err := parseObject(data, "package.json")
	if err != nil {
		return nil, err
	}
	r := doc.Root
	p := &PackageJSON{Doc: doc}
	p.Name = stringField(r.Get("name"))
	p.Version = stringField(r.Get("version"))
	p.Description = stringField(r.Get("description"))
	p.Type = stringField(r.Get("type"))
	p.Main = stringField(r.Get("main"))
	p.Homepage = stringField(r.Get("homepage"))
	p.License = stringOr(r.Get("license"), "type")
	p.Repository = stringOr(r.Get("repository"), "url")
	switch bin := r.Get("bin"); {
	case bin == nil:
	case bin.Kind == JSONString:
		name := ""
		if p.Name != nil {
			name = p.Name.Value
		}
		p.Bin = append(p.Bin, NamedPath{Name: name, Path: bin.Str, Pos: bin.Pos})
	case bin.Kind == JSONObject:
		for _, m := range bin.Members {
			if s, ok := m.Value.String(); ok {
				p.Bin = append(p.Bin, NamedPath{Name: m.Key, Path: s, Pos: m.Value.Pos})
			}
		}
	}
	p.ExportsDot = exportsDot(r.Get("exports"), 0)
	if sc := r.Get("scripts"); sc != nil && sc.Kind == JSONObject {
		p.Scripts = map[string]StringField{}
		for _, m := range sc.Members {
			if s, ok := m.Value.String(); ok {
				p.Scripts[m.Key] = StringField{Value: s, Pos: m.Value.Pos}
			}
		}
	}
	p.Files = r.Get("files").Strings()
	for _, group := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		g := r.Get(group)
		if g == nil || g.Kind != JSONObject {
			continue
		}
		for _, m := range g.Members {
			spec, _ := m.Value.String()
			p.Dependencies = append(p.Dependencies, Dependency{Name: m.Key, Spec: spec, Group: group, Pos: m.KeyPos})
		}
	}
	switch ws := r.Get("workspaces"); {
	case ws == nil:
	case ws.Kind == JSONArray:
		p.Workspaces = ws.Strings()
	case ws.Kind == JSONObject:
		p.Workspaces = ws.Get("packages").Strings()
	}
	return p, nil
}

// exportsDot resolves the "." export to a single path.
func exportsDot(v *JSON, depth int) *StringField {
	if v == nil || depth > 8 {
		return nil
	}
	switch v.Kind {
	case JSONString:
		return stringField(v)
	case JSONObject:
		if dot := v.Get("."); dot != nil {
			return exportsDot(dot, depth+1)
		}
		for _, cond := range []string{"import", "require", "node", "default"} {
			if c := v.Get(cond); c != nil {
				return exportsDot(c, depth+1)
			}
		}
	}
	return nil
}

// HasDependency reports whether any dependency group names pkg.
func (p *PackageJSON) HasDependency(pkg string) bool {
	for _, d := range p.Dependencies {
		if d.Name == pkg {
			return true
		}
	}
	return false
}

// ScriptNames returns the script names in sorted order.
func (p *PackageJSON) ScriptNames() []string {
	names := make([]string, 0, len(p.Scripts))
	for n := range p.Scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
