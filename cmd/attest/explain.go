package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/policy"
)

func newExplainCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "explain CHECK",
		Short: "Explain a check: what it detects, why, how to fix, how to waive",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			cat, err := suite.Default()
			if err != nil {
				return nil, cobra.ShellCompDirectiveError
			}
			var ids []string
			for _, c := range cat.Checks() {
				ids = append(ids, c.ID)
			}
			return ids, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			cat, err := suite.Default()
			if err != nil {
				return withCode(exitError, err)
			}
			c, ok := cat.Lookup(args[0])
			if !ok {
				return withCode(exitError, fmt.Errorf("no check %q%s; 'attest list' shows them all", args[0], suggest(cat, args[0])))
			}
			writeExplain(a, c)
			return nil
		},
	}
}

func writeExplain(a *app, c *checks.Check) {
	w := a.stdout
	kinds := make([]string, len(c.Kinds))
	for i, k := range c.Kinds {
		kinds[i] = string(k)
	}
	fmt.Fprintf(w, "%s@%s — %s\n\n", c.ID, c.Version, c.Title)
	blocking := "no"
	if c.Blocking {
		blocking = "yes: a fail blocks the verdict"
	}
	fmt.Fprintf(w, "  axis      %s (weight %d)\n  blocking  %s\n  tier      %s\n  kinds     %s\n\n", c.Axis, c.Weight, blocking, c.Tier, strings.Join(kinds, ", "))
	fmt.Fprintf(w, "What it detects, and why\n\n%s\n\n", indent(c.Doc))
	fmt.Fprintf(w, "How to fix\n\n%s\n\n", indent(c.Remediation))
	snippet, _ := json.MarshalIndent(map[string]any{"waivers": []policy.Waiver{{
		Check: c.ID, Reason: "why this finding is acceptable, in public", Expires: ptr("2027-01-01"), Paths: []string{"path/to/file"},
	}}}, "  ", "  ")
	fmt.Fprintf(w, "A waiver for attest.json (docs/CONFIG.md; the waiver and its reason are published in every report it lifts)\n\n  %s\n", snippet)
}

func ptr[T any](v T) *T { return &v }

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

// suggest names the closest check ids to a mistyped one.
func suggest(cat *checks.Catalog, id string) string {
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	for _, c := range cat.Checks() {
		d := levenshtein(id, c.ID)
		if d <= 3 || strings.Contains(c.ID, id) {
			cs = append(cs, cand{c.ID, d})
		}
	}
	if len(cs) == 0 {
		return ""
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].id < cs[j].id })
	var names []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		names = append(names, c.id)
	}
	return " (did you mean " + strings.Join(names, ", ") + "?)"
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
