package skillresourcesresolve

import (
	"context"
	"errors"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"net/url"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
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

// Ref is one reference found in a model-read file.
type Ref struct {
	From   string // referring file
	Target string // as written
	Line   int
	Link   bool // a markdown link or image (any extension counts)
}

// Refs extracts references from a markdown document: link and image
// targets and @includes in text, and path-like tokens of inline code and
// fenced blocks. lineBase is the file line of src's first line minus one.
// It reads the blocks the text analysers read (instruct.Blocks), so the
// two agree on what is code and what is prose.
func Refs(from string, src []byte, lineBase int) []Ref {
	var out []Ref
	for _, b := range instruct.Blocks(string(src), lineBase) {
		lines := strings.Split(b.Text, "\n")
		switch b.Kind {
		case instruct.Fence:
			for i, l := range lines {
				for _, tok := range strings.Fields(l) {
					if isPathToken(tok) {
						out = append(out, Ref{from, clean(tok), b.Line + 1 + i, false})
					}
				}
			}
		case instruct.Para, instruct.Quote, instruct.Heading:
			for i, l := range lines {
				line := b.Line + i
				prose := l
				for _, code := range instruct.InlineCode(l) {
					for _, tok := range strings.Fields(code) {
						if isPathToken(tok) {
							out = append(out, Ref{from, clean(tok), line, false})
						}
					}
					prose = strings.Replace(prose, "`"+code+"`", " ", 1)
				}
				if strings.Contains(prose, "](") {
					for _, m := range mdLink.Re().FindAllStringSubmatch(prose, -1) {
						out = append(out, Ref{from, strings.Trim(m[1], "<>"), line, true})
					}
				}
				if strings.Contains(prose, "@") {
					for _, m := range includeRe.Re().FindAllStringSubmatch(prose, -1) {
						out = append(out, Ref{from, m[1], line, false})
					}
				}
			}
		}
	}
	return out
}

var (
	// [text](target "title") and ![alt](target); the target ends at a
	// space or the closing parenthesis.
	mdLink = lex.Lazy(`!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)`)
)

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
	// Every path token holds a slash (both answers below need one): most
	// tokens of a code block are words, and the pattern cost each one.
	if !strings.Contains(tok, "/") || strings.ContainsAny(tok, "$<>{}*?~@") || strings.Contains(tok, "://") || strings.HasPrefix(tok, "-") {
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
