package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ErrNoFrontmatter means the document does not start with a `---` line.
var ErrNoFrontmatter = errors.New("no frontmatter: the file does not start with a '---' line")

// Frontmatter is the YAML block at the top of a markdown file (SKILL.md,
// agent files, commands).
type Frontmatter struct {
	// Keys are the top-level mapping keys in file order.
	Keys []FrontKey
	// Duplicates lists keys defined twice at any depth.
	Duplicates []DuplicateKey
	// BodyLine is the 1-based line where the markdown body starts.
	BodyLine int
	// Body is the markdown after the closing fence.
	Body []byte
	// BodyOffset is the byte offset of Body in the file (after any BOM).
	BodyOffset int
}

// FrontKey is one top-level key with its value node and file position.
type FrontKey struct {
	Name  string
	Pos   Pos
	Value *yaml.Node
}

// Get returns the top-level key (last wins), or nil.
func (f *Frontmatter) Get(name string) *FrontKey {
	if f == nil {
		return nil
	}
	for i := len(f.Keys) - 1; i >= 0; i-- {
		if f.Keys[i].Name == name {
			return &f.Keys[i]
		}
	}
	return nil
}

// String returns a top-level key's value when it is a non-null scalar
// string, and its position.
func (f *Frontmatter) String(name string) (string, Pos, bool) {
	k := f.Get(name)
	if k == nil || k.Value.Kind != yaml.ScalarNode || k.Value.Tag != "!!str" {
		if k != nil {
			return "", k.Pos, false
		}
		return "", Pos{}, false
	}
	return k.Value.Value, k.Pos, true
}

// ParseFrontmatter splits a markdown file into its YAML frontmatter and
// body. The block must open on line 1 (after an optional BOM) with `---` and
// close with `---`, as skill and agent loaders read it. A YAML document end
// (`...`) inside does not close it: a loader would read on to the `---`, so
// what follows the `...` is a second document and reported as one. The YAML
// is parsed under the size, depth, node and alias limits; a second
// document, tabs used as indentation and duplicate keys are reported.
func ParseFrontmatter(data []byte) (*Frontmatter, error) {
	data, _ = stripBOM(data)
	first, rest, ok := cutLine(data)
	if !ok && len(first) == 0 || strings.TrimRight(string(first), " \t\r") != "---" {
		return nil, ErrNoFrontmatter
	}
	off := len(data) - len(rest)
	line := 2
	yamlStart := off
	docEnd := 0 // line of a `...`
	for {
		if len(rest) == 0 {
			if docEnd > 0 {
				return nil, &SyntaxError{Pos: Pos{Line: docEnd, Col: 1}, Msg: "frontmatter ends with '...', which skill and agent loaders do not accept; close it with '---'"}
			}
			return nil, &SyntaxError{Pos: Pos{Line: 1, Col: 1}, Msg: "frontmatter opened with '---' is never closed"}
		}
		l, next, _ := cutLine(rest)
		t := strings.TrimRight(string(l), " \t\r")
		if t == "..." && docEnd == 0 {
			docEnd = line
		}
		if t == "---" {
			yamlBytes := data[yamlStart:off]
			if len(yamlBytes) > MaxManifestBytes {
				return nil, &LimitError{Limit: "frontmatter size in bytes", Max: MaxManifestBytes}
			}
			fm, err := parseYAMLMapping(yamlBytes, 1)
			if err != nil {
				return nil, err
			}
			off += len(rest) - len(next)
			fm.BodyLine = line + 1
			fm.Body = data[off:]
			fm.BodyOffset = off
			return fm, nil
		}
		off += len(rest) - len(next)
		rest = next
		line++
	}
}

func cutLine(b []byte) (line, rest []byte, found bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	return b[:i], b[i+1:], true
}

// parseYAMLMapping parses a YAML document whose top level must be a mapping
// (or empty). lineOffset is added to YAML line numbers so they are file lines.
func parseYAMLMapping(src []byte, lineOffset int) (fm *Frontmatter, err error) {
	defer func() {
		// The YAML library is hardened, but a parser of hostile input must
		// never take the process down.
		if r := recover(); r != nil {
			fm, err = nil, &SyntaxError{Msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	fm = &Frontmatter{}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return fm, nil
		}
		return nil, yamlError(err, lineOffset)
	}
	var second yaml.Node
	if err := dec.Decode(&second); err != io.EOF {
		return nil, &SyntaxError{Pos: Pos{Line: second.Line + lineOffset}, Msg: "a second YAML document in the frontmatter"}
	}
	w := &yamlWalker{lineOffset: lineOffset}
	if err := w.walk(&doc, "", 0); err != nil {
		return nil, err
	}
	fm.Duplicates = w.dups
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	switch root.Kind {
	case yaml.MappingNode:
	case yaml.ScalarNode:
		if root.Tag == "!!null" {
			return fm, nil
		}
		fallthrough
	default:
		return nil, &SyntaxError{Pos: Pos{Line: root.Line + lineOffset, Col: root.Column}, Msg: "frontmatter is not a mapping of keys to values"}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		fm.Keys = append(fm.Keys, FrontKey{Name: k.Value, Pos: Pos{Line: k.Line + lineOffset, Col: k.Column}, Value: v})
	}
	return fm, nil
}

func yamlError(err error, lineOffset int) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return &SyntaxError{Msg: "YAML: " + strings.Join(te.Errors, "; ")}
	}
	msg := err.Error()
	// yaml.v3 reports "yaml: line N: ..."; shift N to a file line.
	var n int
	if _, scanErr := fmt.Sscanf(msg, "yaml: line %d:", &n); scanErr == nil {
		rest := msg[strings.Index(msg, ":")+1:]
		rest = rest[strings.Index(rest, ":")+1:]
		return &SyntaxError{Pos: Pos{Line: n + lineOffset}, Msg: "YAML:" + rest}
	}
	return &SyntaxError{Msg: msg}
}

// yamlWalker enforces the depth, node and alias-expansion limits, which the
// library does not expose, and collects duplicate keys.
type yamlWalker struct {
	lineOffset int
	nodes      int
	aliases    int
	dups       []DuplicateKey
}

func (w *yamlWalker) walk(n *yaml.Node, path string, depth int) error {
	if depth > MaxYAMLDepth {
		return &LimitError{Limit: "YAML nesting depth", Max: MaxYAMLDepth}
	}
	w.nodes++
	if w.nodes > MaxYAMLNodes {
		return &LimitError{Limit: "YAML node count (after alias expansion)", Max: MaxYAMLNodes}
	}
	switch n.Kind {
	case yaml.AliasNode:
		w.aliases++
		if w.aliases > MaxYAMLAliases {
			return &LimitError{Limit: "YAML alias expansions", Max: MaxYAMLAliases}
		}
		if n.Alias != nil {
			return w.walk(n.Alias, path, depth+1)
		}
	case yaml.MappingNode:
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			key := k.Value
			if k.Kind == yaml.ScalarNode && key == "<<" {
				// Merge keys copy another mapping in; they are expansions too.
				w.aliases++
			}
			child := key
			if path != "" {
				child = path + "." + key
			}
			if k.Kind == yaml.ScalarNode && key != "<<" {
				if seen[key] {
					w.dups = append(w.dups, DuplicateKey{Key: child, Pos: Pos{Line: k.Line + w.lineOffset, Col: k.Column}})
				}
				seen[key] = true
			}
			if err := w.walk(k, child, depth+1); err != nil {
				return err
			}
			if err := w.walk(n.Content[i+1], child, depth+1); err != nil {
				return err
			}
		}
	default:
		for _, c := range n.Content {
			if err := w.walk(c, path, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// ParseYAML parses a whole YAML document (a CI workflow, a config file)
// under the same limits as frontmatter and returns its root node.
func ParseYAML(data []byte) (root *yaml.Node, err error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	data, _ = stripBOM(data)
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &SyntaxError{Msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if err == io.EOF {
			return &yaml.Node{}, nil
		}
		return nil, yamlError(err, 0)
	}
	w := &yamlWalker{}
	if err := w.walk(&doc, "", 0); err != nil {
		return nil, err
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], nil
	}
	return &doc, nil
}
