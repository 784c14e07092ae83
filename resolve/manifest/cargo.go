package manifest

// Cargo is the subset of Cargo.toml the checks read.
type Cargo struct {
	Doc *TOMLDoc

	Name, Version, Description, License, LicenseFile, Homepage, Repository *StringField
	Bins                                                                   []NamedPath
	Dependencies                                                           []Dependency
	Workspace                                                              bool
}

// ParseCargo parses Cargo.toml.
func ParseCargo(data []byte) (*Cargo, error) {
	doc, err := ParseTOML(data)
	if err != nil {
		return nil, err
	}
	c := &Cargo{Doc: doc}
	field := func(path string) *StringField {
		if s, ok := doc.String(path); ok {
			return &StringField{Value: s, Pos: doc.Pos(path)}
		}
		return nil
	}
	c.Name = field("package.name")
	c.Version = field("package.version")
	c.Description = field("package.description")
	c.License = field("package.license")
	c.LicenseFile = field("package.license-file")
	c.Homepage = field("package.homepage")
	c.Repository = field("package.repository")
	c.Workspace = doc.Table("workspace") != nil
	if bins, ok := doc.Get("bin").([]any); ok {
		pos := doc.Pos("bin")
		for _, b := range bins {
			m, _ := b.(map[string]any)
			name, _ := m["name"].(string)
			path, _ := m["path"].(string)
			c.Bins = append(c.Bins, NamedPath{Name: name, Path: path, Pos: pos})
		}
	}
	for _, group := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
		for _, n := range namedAny(doc, group) {
			c.Dependencies = append(c.Dependencies, Dependency{Name: n.Name, Spec: n.Path, Group: group, Pos: n.Pos})
		}
	}
	return c, nil
}
