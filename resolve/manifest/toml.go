package manifest

import (
	"errors"
	"fmt"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// TOMLDoc is a parsed TOML document with the position of every key.
type TOMLDoc struct {
	Values map[string]any
	keys   map[string]Pos // dotted path → position of the key
}

// ParseTOML parses a TOML document. TOML forbids redefining a key, so a
// duplicate is a syntax error with the position of the second definition.
func ParseTOML(data []byte) (doc *TOMLDoc, err error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	data, _ = stripBOM(data)
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, &SyntaxError{Msg: fmt.Sprintf("TOML parser failed: %v", r)}
		}
	}()
	doc = &TOMLDoc{Values: map[string]any{}, keys: map[string]Pos{}}
	if err := toml.Unmarshal(data, &doc.Values); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, &SyntaxError{Pos: Pos{Line: row, Col: col}, Msg: "TOML: " + de.Error()}
		}
		return nil, &SyntaxError{Msg: "TOML: " + err.Error()}
	}
	p := &unstable.Parser{}
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
			if k := e.Key(); k.Next() {
				doc.keys[strings.Join(table, ".")] = PosAt(data, int(k.Node().Raw.Offset))
			}
		case unstable.KeyValue:
			parts := append(append([]string{}, table...), keyParts(e.Key())...)
			path := strings.Join(parts, ".")
			if _, ok := doc.keys[path]; !ok {
				if k := e.Key(); k.Next() {
					doc.keys[path] = PosAt(data, int(k.Node().Raw.Offset))
				}
			}
		}
	}
	return doc, nil
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// Pos returns the position of the key at a dotted path (for arrays of
// tables, the first one), or the zero Pos.
func (d *TOMLDoc) Pos(path string) Pos {
	if d == nil {
		return Pos{}
	}
	return d.keys[path]
}

// Get follows a dotted path through tables.
func (d *TOMLDoc) Get(path string) any {
	if d == nil {
		return nil
	}
	var cur any = d.Values
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// String returns the string at path, if it is one.
func (d *TOMLDoc) String(path string) (string, bool) {
	s, ok := d.Get(path).(string)
	return s, ok
}

// Table returns the table at path, if it is one.
func (d *TOMLDoc) Table(path string) map[string]any {
	m, _ := d.Get(path).(map[string]any)
	return m
}
