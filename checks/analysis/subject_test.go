package analysis

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/facts"
)

// subjectOf loads files as an artifact and returns its model.
func subjectOf(t *testing.T, files map[string]string) *facts.Set {
	t.Helper()
	return Of(subject(t, files))
}

// wantLines are the line-level expectations of a fixture's files: a
// comment "want flow:LABEL->KIND" on the sink's line, "want source:LABEL"
// on the source's line, and "want no-flow:LABEL" on a line no flow of that
// label may start from.
func wantLines(t *testing.T, files map[string]string, set *facts.Set) {
	t.Helper()
	n := 0
	for p, content := range files {
		for i, ln := range strings.Split(content, "\n") {
			line := i + 1
			_, w, ok := strings.Cut(ln, "want ")
			if !ok {
				continue
			}
			for _, want := range strings.Fields(w) {
				kind, arg, _ := strings.Cut(want, ":")
				switch kind {
				case "flow":
					n++
					from, to, _ := strings.Cut(arg, "->")
					if !slices.ContainsFunc(set.Flows, func(f facts.Flow) bool {
						return string(f.From.Label) == from && string(f.To.Kind) == to && f.To.At.Path == p && f.To.At.Line == line
					}) {
						t.Errorf("%s:%d: no flow %s there\n%s", p, line, arg, flows(set))
					}
				case "source":
					n++
					if !slices.ContainsFunc(set.Flows, func(f facts.Flow) bool {
						return string(f.From.Label) == arg && f.From.At.Path == p && f.From.At.Line == line
					}) {
						t.Errorf("%s:%d: no flow from a %s source there\n%s", p, line, arg, flows(set))
					}
				case "no-flow":
					n++
					if slices.ContainsFunc(set.Flows, func(f facts.Flow) bool {
						return string(f.From.Label) == arg && f.From.At.Path == p && f.From.At.Line == line
					}) {
						t.Errorf("%s:%d: a flow from a %s source there\n%s", p, line, arg, flows(set))
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the fixture has no expectations")
	}
}

func flows(set *facts.Set) string {
	var b strings.Builder
	for _, f := range set.Flows {
		fmt.Fprintf(&b, "  %s %q at %s:%d → %s %s at %s:%d\n", f.From.Label, f.From.What, f.From.At.Path, f.From.At.Line, f.To.Kind, f.To.API, f.To.At.Path, f.To.At.Line)
	}
	return b.String()
}
