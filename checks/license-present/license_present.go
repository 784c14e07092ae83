package licensepresent

import (
	"context"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"path"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is license-present.
var Check = &checks.Check{
	ID:          "license-present",
	Version:     "1.0.0",
	Title:       "Licence declared",
	Axis:        checks.Integrity,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	fileRefRe = lex.Lazy(`[\w./-]+\.(?:txt|md|rst)\b|\bLICEN[CS]E[\w.-]*|\bCOPYING[\w.-]*`)
)

// commonSPDX are the identifiers most artifacts use, answered without
// loading the SPDX list; any other expression goes to the validator.
var commonSPDX = map[string]bool{"MIT": true, "Apache-2.0": true, "BSD-3-Clause": true, "BSD-2-Clause": true, "ISC": true,
	"MPL-2.0": true, "GPL-3.0-only": true, "GPL-3.0-or-later": true, "LGPL-3.0-only": true, "Unlicense": true, "CC0-1.0": true, "0BSD": true}

type field struct {
	file, value string
	pos         manifest.Pos
	isFile      bool // the field names a file (license-file)
}

func fields(m *resolve.Manifests) []field {
	var out []field
	add := func(file string, f *manifest.StringField, isFile bool) {
		if f != nil && strings.TrimSpace(f.Value) != "" {
			out = append(out, field{file, f.Value, f.Pos, isFile})
		}
	}
	if m.Package.Ok() {
		add(m.Package.Path, m.Package.V.License, false)
	}
	if m.Pyproject.Ok() {
		add(m.Pyproject.Path, m.Pyproject.V.License, false)
	}
	if m.Cargo.Ok() {
		add(m.Cargo.Path, m.Cargo.V.License, false)
		add(m.Cargo.Path, m.Cargo.V.LicenseFile, true)
	}
	if m.Plugin.Ok() {
		add(m.Plugin.Path, m.Plugin.V.License, false)
	}
	if m.AgentJSON.Ok() {
		add(m.AgentJSON.Path, m.AgentJSON.V.License, false)
	}
	if m.Skill.Ok() {
		if v, pos, ok := m.Skill.V.String("license"); ok {
			out = append(out, field{m.Skill.Path, v, pos, false})
		}
	}
	return out
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	inv := in.Subject.Inventory
	var files []string
	for _, f := range inv.Files {
		if !strings.Contains(f.Path, "/") && lex.LicenseFileName(f.Path) {
			files = append(files, f.Path)
		}
	}
	var warns []checks.Evidence
	var good []checks.Evidence
	for _, f := range fields(in.Subject.Manifests) {
		v := strings.TrimSpace(f.value)
		at := func(msg string) checks.Evidence { return checks.At(f.file, f.pos.Line, f.pos.Col, msg) }
		if f.isFile {
			if inv.Exists(path.Clean(v)) {
				good = append(good, at("licence file "+v))
			} else {
				warns = append(warns, at(fmt.Sprintf("licence file %q is not in the artifact", v)))
			}
			continue
		}
		if strings.EqualFold(v, "UNLICENSED") {
			warns = append(warns, at("UNLICENSED: no one may use it"))
			continue
		}
		if after, ok := strings.CutPrefix(strings.ToUpper(v), "SEE LICENSE IN "); ok {
			ref := strings.TrimSpace(v[len(v)-len(after):])
			if inv.Exists(path.Clean(ref)) {
				good = append(good, at("licence in "+ref))
			} else {
				warns = append(warns, at(fmt.Sprintf("names %q, which is not in the artifact", ref)))
			}
			continue
		}
		if commonSPDX[v] {
			good = append(good, at("SPDX "+v))
			continue
		}
		if ok, _ := spdxexp.ValidateLicenses([]string{v}); ok {
			good = append(good, at("SPDX "+v))
			continue
		}
		// Prose naming a file: it passes when the file is there.
		if ref := fileRefRe.Re().FindString(v); ref != "" {
			if inv.Exists(path.Clean(ref)) {
				good = append(good, at("licence terms in "+ref))
			} else {
				warns = append(warns, at(fmt.Sprintf("names %q, which is not in the artifact", ref)))
			}
			continue
		}
		if len(files) == 0 {
			warns = append(warns, at(fmt.Sprintf("%q is not a valid SPDX expression", v)))
		}
	}
	for _, f := range files {
		good = append(good, checks.At(f, 0, 0, "licence file"))
	}
	switch {
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	case len(good) > 0:
		return checks.Passed("licence: "+good[0].Message, good...), nil
	}
	return checks.Warning(0, "no licence file and no licence declared", checks.At(".", 0, 0, "")), nil
}
