package nobundledbinaries

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/binfmt"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-bundled-binaries.
var Check = &checks.Check{
	ID:          "no-bundled-binaries",
	Version:     "1.1.0",
	Title:       "No bundled binaries the artifact runs",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Limits on reading inside archives and documents.
const (
	MaxHeader = 64 << 10 // bytes of a file read to classify it
)

var (
	pdfActive = lex.Lazy(`/Launch\b|/EmbeddedFile\b|/JavaScript\b|/JS\b`)
	svgScript = lex.Lazy(`(?i)<script\b|\bon(load|click|error|mouseover)\s*=|javascript:`)
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	inv := s.Inventory
	var fails, warns []checks.Evidence
	var unscanned []string
	refs := references(s)
	binaries := 0
	for i := range inv.Files {
		f := &inv.Files[i]
		if !f.Scanned {
			unscanned = append(unscanned, f.Path)
			continue
		}
		t := binfmt.Detect(f.Path, f.Content)
		ext := strings.ToLower(path.Ext(f.Path))
		native := ext == ".node" || ext == ".so" || ext == ".dylib" || ext == ".dll"
		if t == "" && native {
			t = binfmt.Type("native library")
		}
		if t == "" || t == binfmt.Media || t == binfmt.DataFile {
			continue
		}
		at := func(msg string) checks.Evidence { return checks.At(f.Path, 0, 0, fmt.Sprintf("%s: %s", t, msg)) }
		switch {
		case t == binfmt.SVG:
			if svgScript.Re().Match(f.Content) {
				fails = append(fails, at("an binfmt.SVG with a script"))
			}
			continue
		case t == binfmt.PDF:
			if pdfActive.Re().Match(f.Content) {
				fails = append(fails, at("a binfmt.PDF with active content (launch, embedded file or JavaScript)"))
			}
			continue
		}
		binaries++
		switch {
		case binfmt.Disguised(f.Path, t):
			fails = append(fails, at(fmt.Sprintf("disguised as a %s file", ext)))
		case t == binfmt.PyByte:
			src := sourceOf(f.Path)
			if _, ok := inv.File(src); !ok {
				fails = append(fails, at("Python bytecode without its source "+src))
			} else {
				warns = append(warns, at("committed bytecode beside its source"))
			}
		case t == binfmt.Zip && hasMacro(f.Content):
			fails = append(fails, at("an Office document with a VBA project"))
		case t == binfmt.OLE && bytes.Contains(f.Content, []byte("V\x00B\x00A")):
			fails = append(fails, at("an Office document with macros"))
		case t.Archive():
			members, err := opened(s, f.Path)
			var bad []string
			for _, m := range members {
				switch {
				case m.Escapes:
					fails = append(fails, checks.At(f.Path, 0, 0, fmt.Sprintf("archive member %s escapes the extraction directory", m.Name)))
				case m.Type.Executable():
					bad = append(bad, m.Name+" ("+string(m.Type)+")")
				}
			}
			switch {
			case len(bad) > 0 && refs[f.Path] != "":
				fails = append(fails, at(fmt.Sprintf("extracted by %s and holds %s", refs[f.Path], strings.Join(bad, ", "))))
			case len(bad) > 0:
				warns = append(warns, at("holds "+strings.Join(bad, ", ")))
			case err != nil:
				unscanned = append(unscanned, f.Path)
			case refs[f.Path] != "":
				warns = append(warns, at(fmt.Sprintf("extracted by %s; its %s were inspected and hold no executable", refs[f.Path], checks.Plural(len(members), "member"))))
			default:
				warns = append(warns, at(fmt.Sprintf("review: %s inside", checks.Plural(len(members), "member"))))
			}
		case (t.Executable() || native) && refs[f.Path] != "":
			fails = append(fails, at("run or loaded by "+refs[f.Path]))
		default:
			warns = append(warns, at("review: a binary in the artifact"))
		}
	}
	metric := checks.Metric("binaries", float64(binaries), "files")
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s is %s", fails[0].Path, fails[0].Message), append(append(fails, warns...), metric)...), nil
	case len(unscanned) > 0:
		return checks.Skipped(fmt.Sprintf("%s too large to classify", checks.Plural(len(unscanned), "file")), checks.At(unscanned[0], 0, 0, "not read")), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s is %s", warns[0].Path, warns[0].Message), append(warns, metric)...), nil
	}
	return checks.Passed("no executables, bytecode or archives", metric), nil
}

func sourceOf(pyc string) string {
	dir, base := path.Split(pyc)
	name := strings.SplitN(base, ".", 2)[0]
	dir = strings.TrimSuffix(dir, "/")
	if path.Base(dir) == "__pycache__" {
		dir = path.Dir(dir)
	}
	return path.Join(dir, name+".py")
}

// opened returns an archive's members as files.OpenArchives read them,
// once per run for this check and the content checks.
func opened(s *resolve.Subject, p string) ([]binfmt.Member, error) {
	for _, a := range files.OpenArchives(s).List {
		if a.Path == p {
			return a.Members, a.Err
		}
	}
	return nil, nil
}

// hasMacro opens a zip-based document and looks for a VBA project.
func hasMacro(b []byte) bool {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return false
	}
	for i, m := range zr.File {
		if i >= binfmt.MaxMembers {
			break
		}
		if strings.HasSuffix(strings.ToLower(m.Name), "vbaproject.bin") {
			return true
		}
	}
	return false
}

// references maps each file to the first text file that names it: a
// manifest, a script, a hook, code or an instruction.
func references(s *resolve.Subject) map[string]string {
	inv := s.Inventory
	var candidates []string
	for i := range inv.Files {
		f := &inv.Files[i]
		if f.Scanned && !files.IsText(f) {
			candidates = append(candidates, f.Path)
		}
	}
	out := map[string]string{}
	if len(candidates) == 0 {
		return out
	}
	for i := range inv.Files {
		f := &inv.Files[i]
		if !files.IsText(f) {
			continue
		}
		for _, c := range candidates {
			if _, done := out[c]; done || c == f.Path {
				continue
			}
			if bytes.Contains(f.Content, []byte(c)) || bytes.Contains(f.Content, []byte("/"+path.Base(c))) || bytes.Contains(f.Content, []byte("./"+path.Base(c))) {
				out[c] = f.Path
			}
		}
	}
	return out
}
