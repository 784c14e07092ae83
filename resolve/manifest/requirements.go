package manifest

import (
	"bytes"
	"github.com/metahub-ai/attest/checks/lex"
	"strings"
)

// Requirement is one line of a requirements file.
type Requirement struct {
	Name    string // PEP 503 normalised
	Raw     string // the name as written
	Spec    string // version specifier, "" when unpinned
	Markers string
	URL     string // direct reference (name @ url) or a bare URL/path line
	Pos     Pos
}

// Requirements is a parsed requirements*.txt.
type Requirements struct {
	Requirements []Requirement
	Includes     []StringAt // -r / -c files
	Options      []StringAt // other option lines (--index-url, ...)
}

var (
	reqNameRe = lex.Lazy(`^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$`)
	pep503Re  = lex.Lazy(`[-_.]+`)
)

// NormalizePyName applies PEP 503 normalisation.
func NormalizePyName(name string) string {
	return strings.ToLower(pep503Re.Re().ReplaceAllString(name, "-"))
}

// ParseRequirements parses a pip requirements file: comments, line
// continuations, option lines, includes, PEP 508 requirements and direct
// references.
func ParseRequirements(data []byte) (*Requirements, error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	data, _ = stripBOM(data)
	r := &Requirements{}
	lines := bytes.Split(data, []byte{'\n'})
	if len(lines) > MaxRequirements {
		return nil, &LimitError{Limit: "requirements lines", Max: MaxRequirements}
	}
	for i := 0; i < len(lines); i++ {
		start := i + 1
		text := strings.TrimRight(string(lines[i]), "\r")
		for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, `\`) + strings.TrimRight(string(lines[i]), "\r")
		}
		if j := strings.Index(text, " #"); j >= 0 {
			text = text[:j]
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		pos := Pos{Line: start, Col: 1}
		if strings.HasPrefix(text, "-") {
			for _, p := range []string{"-r", "--requirement", "-c", "--constraint"} {
				if rest, ok := strings.CutPrefix(text, p); ok && (rest == "" || rest[0] == ' ' || rest[0] == '=') {
					r.Includes = append(r.Includes, StringAt{Value: strings.TrimSpace(strings.TrimLeft(rest, "= ")), Pos: pos})
					goto next
				}
			}
			if rest, ok := strings.CutPrefix(text, "-e"); ok {
				r.Requirements = append(r.Requirements, Requirement{URL: strings.TrimSpace(rest), Pos: pos})
				goto next
			}
			r.Options = append(r.Options, StringAt{Value: text, Pos: pos})
			goto next
		}
		if req, ok := parseRequirement(text); ok {
			req.Pos = pos
			r.Requirements = append(r.Requirements, req)
		} else {
			r.Requirements = append(r.Requirements, Requirement{URL: text, Pos: pos})
		}
	next:
	}
	return r, nil
}

// parseRequirement parses one PEP 508 requirement string.
func parseRequirement(s string) (Requirement, bool) {
	if strings.Contains(s, "://") && !strings.Contains(s, "@") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/") {
		return Requirement{}, false
	}
	m := reqNameRe.Re().FindStringSubmatch(s)
	if m == nil {
		return Requirement{}, false
	}
	req := Requirement{Raw: m[1], Name: NormalizePyName(m[1])}
	rest := m[3]
	if i := strings.Index(rest, ";"); i >= 0 {
		req.Markers = strings.TrimSpace(rest[i+1:])
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	if u, ok := strings.CutPrefix(rest, "@"); ok {
		req.URL = strings.TrimSpace(u)
	} else {
		req.Spec = strings.Trim(rest, "() ")
	}
	return req, true
}

// Has reports whether the file requires the (normalised) name.
func (r *Requirements) Has(name string) bool {
	n := NormalizePyName(name)
	for _, q := range r.Requirements {
		if q.Name == n {
			return true
		}
	}
	return false
}
