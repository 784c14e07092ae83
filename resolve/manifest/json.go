package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// JSONKind is the type of a JSON value.
type JSONKind uint8

const (
	JSONNull JSONKind = iota
	JSONBool
	JSONNumber
	JSONString
	JSONArray
	JSONObject
)

func (k JSONKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// JSON is a parsed JSON value that remembers where it stood in the file.
type JSON struct {
	Kind    JSONKind
	Pos     Pos
	Str     string      // JSONString
	Num     json.Number // JSONNumber
	Bool    bool        // JSONBool
	Items   []*JSON     // JSONArray
	Members []Member    // JSONObject, in file order
}

// Member is one key of an object.
type Member struct {
	Key    string
	KeyPos Pos
	Value  *JSON
}

// JSONDoc is a parsed JSON document.
type JSONDoc struct {
	Root       *JSON
	Duplicates []DuplicateKey
}

// ParseJSON parses one JSON document under MaxManifestBytes and MaxJSONDepth,
// recording positions and duplicate keys. A UTF-8 BOM is accepted.
func ParseJSON(data []byte) (*JSONDoc, error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	data, _ = stripBOM(data)
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	root, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &SyntaxError{Pos: PosAt(data, p.start()), Msg: "unexpected data after the top-level value"}
	}
	return &JSONDoc{Root: root, Duplicates: p.dups}, nil
}

type jsonParser struct {
	data []byte
	dec  *json.Decoder
	dups []DuplicateKey
}

// start returns the offset of the next token: InputOffset points just past
// the previous one, so skip the separators json.Decoder consumes silently.
func (p *jsonParser) start() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *jsonParser) token() (json.Token, Pos, error) {
	off := p.start()
	tok, err := p.dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, Pos{}, &SyntaxError{Pos: PosAt(p.data, len(p.data)), Msg: "unexpected end of JSON input"}
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, Pos{}, &SyntaxError{Pos: PosAt(p.data, int(se.Offset)), Msg: se.Error()}
		}
		return nil, Pos{}, &SyntaxError{Pos: PosAt(p.data, off), Msg: err.Error()}
	}
	return tok, PosAt(p.data, off), nil
}

func (p *jsonParser) value(path string, depth int) (*JSON, error) {
	if depth > MaxJSONDepth {
		return nil, &LimitError{Limit: "JSON nesting depth", Max: MaxJSONDepth}
	}
	tok, pos, err := p.token()
	if err != nil {
		return nil, err
	}
	v := &JSON{Pos: pos}
	switch t := tok.(type) {
	case nil:
		v.Kind = JSONNull
	case bool:
		v.Kind, v.Bool = JSONBool, t
	case json.Number:
		v.Kind, v.Num = JSONNumber, t
	case string:
		v.Kind, v.Str = JSONString, t
	case json.Delim:
		switch t {
		case '[':
			v.Kind = JSONArray
			for p.dec.More() {
				item, err := p.value(path+"[]", depth+1)
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, item)
			}
		case '{':
			v.Kind = JSONObject
			seen := map[string]bool{}
			for p.dec.More() {
				ktok, kpos, err := p.token()
				if err != nil {
					return nil, err
				}
				key, _ := ktok.(string)
				child := key
				if path != "" {
					child = path + "." + key
				}
				if seen[key] {
					p.dups = append(p.dups, DuplicateKey{Key: child, Pos: kpos})
				}
				seen[key] = true
				val, err := p.value(child, depth+1)
				if err != nil {
					return nil, err
				}
				v.Members = append(v.Members, Member{Key: key, KeyPos: kpos, Value: val})
			}
		default:
			return nil, &SyntaxError{Pos: pos, Msg: fmt.Sprintf("unexpected %q", t)}
		}
		if _, _, err := p.token(); err != nil { // closing delimiter
			return nil, err
		}
	}
	return v, nil
}

// Get returns the value of key in an object, or nil. With duplicate keys
// the last one wins, as in encoding/json; duplicates are reported separately.
func (v *JSON) Get(key string) *JSON {
	if v == nil || v.Kind != JSONObject {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Member returns the member for key (last wins), or nil.
func (v *JSON) Member(key string) *Member {
	if v == nil || v.Kind != JSONObject {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return &v.Members[i]
		}
	}
	return nil
}

// Path follows a dotted path of object keys.
func (v *JSON) Path(path string) *JSON {
	for _, k := range strings.Split(path, ".") {
		v = v.Get(k)
	}
	return v
}

// String returns the string value and whether v is a string.
func (v *JSON) String() (string, bool) {
	if v == nil || v.Kind != JSONString {
		return "", false
	}
	return v.Str, true
}

// Strings returns v as a list of strings: a string is a list of one, an
// array keeps its string items. Other values give nil.
func (v *JSON) Strings() []StringAt {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case JSONString:
		return []StringAt{{Value: v.Str, Pos: v.Pos}}
	case JSONArray:
		var out []StringAt
		for _, it := range v.Items {
			if it.Kind == JSONString {
				out = append(out, StringAt{Value: it.Str, Pos: it.Pos})
			}
		}
		return out
	}
	return nil
}

// StringAt is a string value with its position.
type StringAt struct {
	Value string
	Pos   Pos
}
