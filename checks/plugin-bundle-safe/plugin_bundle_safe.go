package pluginbundlesafe

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is plugin-bundle-safe.
var Check = &checks.Check{
	ID:          "plugin-bundle-safe",
	Version:     "1.1.0",
	Title:       "Bundled components are safe",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindPlugin},
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

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var r instruct.Result
	n := 0
	for i := range s.Inventory.Files {
		p := s.Inventory.Files[i].Path
		kind, ok := component(p)
		if !ok {
			continue
		}
		d, ok := instruct.Load(s, p)
		if !ok {
			continue
		}
		n++
		instruct.Hostile(d, &r, kind != "skill")
	}
	var servers []manifest.MCPServerSpec
	file := ""
	if m := s.Manifests.MCPConfig; m.Ok() {
		servers, file = m.V.Servers, m.Path
	}
	if p := s.Manifests.Plugin; p.Ok() && p.V.Inline["mcpServers"] != nil {
		servers = append(servers, manifest.MCPServersFrom(p.V.Inline["mcpServers"])...)
		if file == "" {
			file = p.Path
		}
	}
	var programs []shell.Program
	for _, sv := range servers {
		n++
		if sv.Command != "" {
			programs = append(programs, shell.Program{Path: file, Line: sv.Pos.Line - 1, Source: []byte(shellJoin(sv.Command, sv.Args)), Where: "MCP server " + sv.Name})
		}
		if strings.HasPrefix(sv.URL, "http://") && !strings.HasPrefix(sv.URL, "http://localhost") && !strings.HasPrefix(sv.URL, "http://127.0.0.1") {
			r.Warns = append(r.Warns, checks.At(file, sv.Pos.Line, 0, fmt.Sprintf("MCP server %s is reached over plain http", sv.Name)))
		}
	}
	f, w, _ := shell.Rate(programs)
	r.Fails, r.Warns = append(r.Fails, f...), append(r.Warns, w...)
	return r.Outcome(n, "the plugin bundles no components", fmt.Sprintf("%s read, nothing hostile", checks.Plural(n, "component"))), nil
}

// shellJoin quotes a command and its arguments as a shell would receive
// them; an argument that is itself a script (sh -c BODY) stays one word.
func shellJoin(cmd string, args []string) string {
	parts := []string{cmd}
	for _, a := range args {
		parts = append(parts, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(parts, " ")
}
