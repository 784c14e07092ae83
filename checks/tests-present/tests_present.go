package testspresent

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is tests-present.
var Check = &checks.Check{
	ID:          "tests-present",
	Version:     "1.0.0",
	Title:       "Tests or evals ship with it",
	Axis:        checks.Care,
	Weight:      0,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// IsTest reports whether a path is a test file or an eval.
func IsTest(p string) bool {
	dir, base := path.Split(p)
	for _, seg := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		switch seg {
		case "test", "tests", "__tests__", "spec", "e2e":
			return true
		case "evals":
			return strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonl") || strings.HasSuffix(base, ".yaml")
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") ||
		strings.HasSuffix(base, "_test.py") || strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.rs")
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	n, first := 0, ""
	for i := range in.Subject.Inventory.Files {
		if p := in.Subject.Inventory.Files[i].Path; IsTest(p) {
			if n == 0 {
				first = p
			}
			n++
		}
	}
	m := checks.Metric("test_files", float64(n), "files")
	if n == 0 {
		// An information check: it reports, it does not judge.
		r := checks.NotApplicable("no test or eval files (information only)")
		r.Evidence = []checks.Evidence{m}
		return r, nil
	}
	return checks.Passed(fmt.Sprintf("%s, first %s", checks.Plural(n, "test file"), first), m), nil
}
