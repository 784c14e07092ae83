package skillallowedtools

import (
	"context"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-allowed-tools.
var Check = &checks.Check{
	ID:          "skill-allowed-tools",
	Version:     "1.0.0",
	Title:       "Skill tool grants fit what it does",
	Axis:        checks.Safety,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Tools returns the allowed-tools entries (a string list or a comma list).
func Tools(v *yaml.Node) []string {
	if v == nil {
		return nil
	}
	var raw []string
	switch v.Kind {
	case yaml.ScalarNode:
		raw = splitTools(v.Value)
	case yaml.SequenceNode:
		for _, it := range v.Content {
			raw = append(raw, splitTools(it.Value)...)
		}
	}
	return raw
}

// splitTools splits "Read, Bash(git log:*), Write" at top-level commas.
func splitTools(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',', ' ':
			if depth == 0 {
				if t := strings.TrimSpace(s[start:i]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func broad(t string) bool {
	switch t {
	case "*", "Bash", "Bash(*)", "Bash(*:*)", "Write", "Edit", "MultiEdit", "WebFetch", "NotebookEdit":
		return true
	}
	return false
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	sk := s.Manifests.Skill
	if !sk.Ok() {
		return checks.NotApplicable("SKILL.md frontmatter does not load"), nil
	}
	acts := ships(s)
	field := sk.V.Get("allowed-tools")
	tools := Tools(nil)
	line := 1
	if field != nil {
		tools, line = Tools(field.Value), field.Pos.Line
	}
	var elevated []string
	for _, t := range tools {
		if broad(t) {
			elevated = append(elevated, t)
		}
	}
	switch {
	case acts != "" && (field == nil || len(tools) == 1 && tools[0] == "*"):
		return checks.Warning(0.5, fmt.Sprintf("the skill %s but declares no narrow allowed-tools", acts), checks.At("SKILL.md", line, 0, "allowed-tools")), nil
	case acts == "" && len(elevated) > 0:
		return checks.Warning(0.5, fmt.Sprintf("broad grants %s in a skill that runs nothing", strings.Join(elevated, ", ")), checks.At("SKILL.md", line, 0, "allowed-tools")), nil
	case field == nil:
		return checks.Passed("a prose skill with no tool grants"), nil
	case len(elevated) > 0:
		return checks.Passed("allowed-tools fits the skill; elevated: "+strings.Join(elevated, ", "), checks.At("SKILL.md", line, 0, "")), nil
	}
	return checks.Passed("allowed-tools: " + strings.Join(tools, ", ")), nil
}

// ships says what the skill does beyond prose, or "".
func ships(s *resolve.Subject) string {
	for i := range s.Inventory.Files {
		f := &s.Inventory.Files[i]
		if l := files.Language(f.Path, f.Content); l != "" {
			return "ships scripts (" + f.Path + ")"
		}
	}
	for d := range instruct.ModelDocs(s) {
		for _, b := range d.BodyBlocks() {
			if b.Kind == instruct.Fence && (b.Info == "bash" || b.Info == "sh" || b.Info == "shell" || b.Info == "console") {
				return "runs commands (" + d.Path + ")"
			}
		}
	}
	return ""
}
