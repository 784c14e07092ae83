package pluginbundlesafe

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is plugin-bundle-safe.
var Check = &checks.Check{
	ID:          "plugin-bundle-safe",
	Version:     "2.3.0",
	Title:       "Bundled components are safe",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindPlugin},
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func component(p string) (kind string, ok bool) {
	if !strings.HasSuffix(p, ".md") {
		return "", false
	}
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch seg {
		case "skills":
			return "skill", true
		case "agents", "subagents":
			return "agent", true
		case "commands":
			return "command", true
		}
	}
	return "", false
}

// Instruction families that steer the model against its user or host. An
// agent or a command is the model's instructions, so it fails on these; a
// skill's own steering is judged by the instruction-injection check.
var steering = map[string]bool{"override": true, "rule-drop": true, "persona": true, "authority": true, "conceal": true,
	"approval-skip": true, "coerce": true, "evaluator": true, "parent-steer": true, "extract": true, "expose": true,
	"hide-output": true, "withhold-evidence": true, "verify-skip": true, "redirect": true}

// Instruction families that act on the machine or the user's data; any
// component fails on these.
var acting = map[string]bool{"fetch-follow": true, "delete-broad": true, "safety-off": true}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	set := in.Facts()
	kinds := map[string]string{}
	for i := range s.Inventory.Files {
		p := s.Inventory.Files[i].Path
		if kind, ok := component(p); ok {
			kinds[p] = kind
		}
	}
	n := len(kinds)
	var fails, warns []checks.Evidence
	// The servers of the bundled MCP configuration are lowered by the
	// model with their launch specs ("MCP server NAME").
	mcpFile := ""
	var servers []manifest.MCPServerSpec
	if m := s.Manifests.MCPConfig; m.Ok() {
		mcpFile, servers = m.Path, m.V.Servers
	}
	launch := func(at facts.Span) bool {
		return at.Path == mcpFile && len(at.Via) > 0 && strings.HasPrefix(at.Via[0], "MCP server ")
	}
	f, w := shell.Judge(set, shell.Scope{In: func(at facts.Span, _ facts.Context) bool { return kinds[at.Path] != "" || launch(at) }})
	fails, warns = append(fails, f...), append(warns, w...)
	for _, sk := range set.Sinks {
		kind := kinds[sk.At.Path]
		if sk.Kind != facts.ModelInstruction || kind == "" || !query.Stands(sk.Ctx) || !query.ModelRead(sk.Ctx) {
			continue
		}
		if !acting[sk.Instr.Family] && !(kind != "skill" && steering[sk.Instr.Family]) {
			continue
		}
		ev := query.SinkEvidence(sk, fmt.Sprintf("the bundled %s tells the model: %s (%q)", kind, sk.Instr.Family, sk.Instr.Phrase))
		if sk.Instr.Weak || sk.Ctx.Has(facts.Quoted) {
			warns = append(warns, ev)
		} else {
			fails = append(fails, ev)
		}
	}
	// The plugin manifest's own mcpServers: not an MCP client
	// configuration file, so each launch spec is read here, through the
	// same shell producer.
	if p := s.Manifests.Plugin; p.Ok() && p.V.Inline["mcpServers"] != nil {
		inline := manifest.MCPServersFrom(p.V.Inline["mcpServers"])
		for _, sv := range inline {
			if sv.Command == "" {
				continue
			}
			cmd := flow.ShellJoin(append([]string{sv.Command}, sv.Args...))
			sub := analysis.Code("shell", p.Path, cmd, int32(sv.Pos.Line-1), 0)
			f, w := shell.Judge(sub, shell.Scope{In: func(facts.Span, facts.Context) bool { return true }})
			for i := range f {
				f[i].Message += " (MCP server " + sv.Name + ")"
			}
			for i := range w {
				w[i].Message += " (MCP server " + sv.Name + ")"
			}
			fails, warns = append(fails, f...), append(warns, w...)
		}
		servers = append(servers, inline...)
		if mcpFile == "" {
			mcpFile = p.Path
		}
	}
	for _, sv := range servers {
		n++
		if strings.HasPrefix(sv.URL, "http://") && !query.Loopback(sv.URL) {
			warns = append(warns, checks.At(mcpFile, sv.Pos.Line, 0, fmt.Sprintf("MCP server %s is reached over plain http", sv.Name)))
		}
	}
	if n == 0 {
		return checks.NotApplicable("the plugin bundles no components"), nil
	}
	return shell.Outcome(fails, warns, fmt.Sprintf("%s read, nothing hostile", checks.Plural(n, "component"))), nil
}
