package manifest

import (
	"fmt"

	"golang.org/x/mod/modfile"
)

// GoMod is a parsed go.mod.
type GoMod struct {
	File     *modfile.File
	Module   *StringField
	Requires []Dependency
}

// ParseGoMod parses go.mod with golang.org/x/mod/modfile.
func ParseGoMod(data []byte) (gm *GoMod, err error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			gm, err = nil, &SyntaxError{Msg: fmt.Sprintf("go.mod parser failed: %v", r)}
		}
	}()
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil, &SyntaxError{Msg: err.Error()}
	}
	gm = &GoMod{File: f}
	if f.Module != nil {
		gm.Module = &StringField{Value: f.Module.Mod.Path, Pos: Pos{Line: f.Module.Syntax.Start.Line, Col: f.Module.Syntax.Start.LineRune}}
	}
	for _, r := range f.Require {
		gm.Requires = append(gm.Requires, Dependency{Name: r.Mod.Path, Spec: r.Mod.Version, Group: "require",
			Pos: Pos{Line: r.Syntax.Start.Line, Col: r.Syntax.Start.LineRune}})
	}
	return gm, nil
}

// Requires reports whether go.mod requires a module path.
func (g *GoMod) Require(path string) *Dependency {
	for i := range g.Requires {
		if g.Requires[i].Name == path {
			return &g.Requires[i]
		}
	}
	return nil
}
