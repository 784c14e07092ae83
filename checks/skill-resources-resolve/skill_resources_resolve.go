package skillresourcesresolve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is skill-resources-resolve.
var Check = &checks.Check{
	ID:          "skill-resources-resolve",
	Version:     "1.0.0",
	Title:       "Skill references resolve",
	Axis:        checks.Integrity,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MaxFiles bounds the transitive walk.
const MaxFiles = 500

var (
	pathTokenRe = lex.Lazy(`^(\.{1,2}/)*[A-Za-z0-9_][\w.-]*(/[\w.-]+)*(/|\.[A-Za-z0-9]{1,6})$`)
	includeRe   = lex.Lazy(`(?:^|\s)@((?:\.{1,2}/)*[\w.-]+(?:/[\w.-]+)*\.[A-Za-z0-9]{1,6})\b`)
	resourceExt = map[string]bool{".py": true, ".sh": true, ".bash": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true,
		".md": true, ".txt": true, ".json": true, ".yaml": true, ".yml": true, ".toml": true, ".html": true, ".css": true,
		".xml": true, ".xsd": true, ".sql": true, ".rb": true, ".go": true, ".ps1": true, ".r": true, ".ipynb": true}
)

// mdParser is built once: goldmark parsers are safe for concurrent use.
var mdParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
})

// Ref is one reference found in a model-read file.
type Ref struct {
	From   string // referring file
	Target string // as written
	Line   int
	Link   bool // a markdown link or image (any extension counts)
}

// Refs extracts references from a markdown document. offset is the byte
// offset of src within the file and lineBase the file line of src's first
// line minus one, so lines are file lines.
func Refs(from string, src []byte, lineBase int) []Ref {
	doc := mdParser().Parse(text.NewReader(src))
	var out []Ref
	lineOf := func(off int) int { return lineBase + bytes.Count(src[:min(off, len(src))], []byte{'\n'}) + 1 }
	blockStart := func(n ast.Node) int {
		for p := n; p != nil; p = p.Parent() {
			if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
				return p.Lines().At(0).Start
			}
		}
		return 0
	}
	find := func(n ast.Node, needle []byte) int {
		start := blockStart(n)
		if i := bytes.Index(src[start:], needle); i >= 0 {
			return start + i
		}
		return start
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Link:
			out = append(out, Ref{from, string(v.Destination), lineOf(find(n, v.Destination)), true})
		case *ast.Image:
			out = append(out, Ref{from, string(v.Destination), lineOf(find(n, v.Destination)), true})
		case *ast.CodeSpan:
			var b bytes.Buffer
			for c := v.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			for _, tok := range strings.Fields(b.String()) {
				if isPathToken(tok) {
					out = append(out, Ref{from, clean(tok), lineOf(find(n, []byte(tok))), false})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				for _, tok := range strings.Fields(string(seg.Value(src))) {
					if isPathToken(tok) {
						out = append(out, Ref{from, clean(tok), lineOf(seg.Start), false})
					}
				}
			}
		case *ast.Text:
			seg := v.Segment
			for _, m := range includeRe.Re().FindAllSubmatchIndex(seg.Value(src), -1) {
				out = append(out, Ref{from, string(seg.Value(src)[m[2]:m[3]]), lineOf(seg.Start + m[2]), false})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

func clean(tok string) string {
	return strings.Trim(tok, "\"'`(),;:")
}

// isPathToken decides whether a code token names a file of the skill. Real
// skills put output names (out.pdf, unpacked/), placeholders (skill-name/)
// and file trees (├── README.md) in their code, so a token counts only
// when it has a directory part and either a script or document extension,
// or a trailing slash after two or more segments.
func isPathToken(tok string) bool {
	tok = clean(tok)
	if strings.ContainsAny(tok, "$<>{}*?~@") || strings.Contains(tok, "://") || strings.HasPrefix(tok, "-") {
		return false
	}
	if !pathTokenRe.Re().MatchString(tok) {
		return false
	}
	rel := strings.TrimLeft(tok, "./")
	if strings.HasSuffix(tok, "/") {
		return strings.Count(strings.TrimSuffix(rel, "/"), "/") >= 1
	}
	return strings.Contains(rel, "/") && resourceExt[strings.ToLower(path.Ext(tok))]
}

// knownDir reports whether a code token's first directory is one the skill
// ships, next to the referring file or at the root: scripts/missing.py
// counts when scripts/ exists; unpacked/word/ is someone else's tree.
func knownDir(inv *resolve.Inventory, from, target string) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(target, "./"), "/")
	if first == ".." {
		return true // leaving the skill is judged, whatever is there
	}
	return inv.IsDir(path.Join(path.Dir(from), first)) || inv.IsDir(first)
}

// skip says whether a link target is outside this check's concern.
func skip(target string) bool {
	t := strings.TrimSpace(target)
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") || strings.HasPrefix(t, "//") {
		return true
	}
	if u, err := url.Parse(t); err == nil && u.Scheme != "" {
		return true // http:, mailto:, data:, ...
	}
	return strings.ContainsAny(t, "$<>{}*?")
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sk := in.Subject.Manifests.Skill
	inv := in.Subject.Inventory
	if sk == nil || (sk.Err != nil && !errors.Is(sk.Err, manifest.ErrNoFrontmatter)) {
		return checks.NotApplicable("no loadable SKILL.md"), nil
	}
	queue := []string{"SKILL.md"}
	seen := map[string]bool{"SKILL.md": true}
	var warns []checks.Evidence
	total := 0
	for len(queue) > 0 {
		if len(seen) > MaxFiles {
			return checks.Skipped(fmt.Sprintf("more than %d referenced markdown files", MaxFiles)), nil
		}
		file := queue[0]
		queue = queue[1:]
		src, ok := inv.Read(file)
		if !ok {
			continue
		}
		body, lineBase := src, 0
		if fm, err := manifest.ParseFrontmatter(src); err == nil {
			body, lineBase = fm.Body, fm.BodyLine-1
		}
		for _, r := range Refs(file, body, lineBase) {
			target := r.Target
			if i := strings.IndexAny(target, "#?"); i >= 0 {
				target = target[:i]
			}
			if dec, err := url.PathUnescape(target); err == nil {
				target = dec
			}
			if skip(target) {
				continue
			}
			if !r.Link && !knownDir(inv, file, target) {
				continue // a workspace or output path the skill writes or reads, not one it ships
			}
			total++
			rel := path.Join(path.Dir(file), target)
			if rel == ".." || strings.HasPrefix(rel, "../") {
				warns = append(warns, checks.At(file, r.Line, 0, fmt.Sprintf("%q leaves the skill", r.Target)))
				continue
			}
			found := ""
			for _, cand := range []string{rel, path.Clean(target)} {
				if !strings.HasPrefix(cand, "../") && inv.Exists(cand) {
					found = cand
					break
				}
			}
			if found == "" {
				warns = append(warns, checks.At(file, r.Line, 0, fmt.Sprintf("%q does not exist in the skill", r.Target)))
				continue
			}
			if strings.HasSuffix(found, ".md") && !seen[found] {
				seen[found] = true
				queue = append(queue, found)
			}
		}
	}
	switch {
	case len(warns) > 0:
		return checks.Warning(max(0, 1-float64(len(warns))/float64(total)), fmt.Sprintf("%s: %s", warns[0].Path, warns[0].Message), warns...), nil
	case total == 0:
		return checks.NotApplicable("SKILL.md references no files"), nil
	}
	return checks.Passed(fmt.Sprintf("%s across %s resolved", checks.Plural(total, "reference"), checks.Plural(len(seen), "file"))), nil
}
