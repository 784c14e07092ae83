package analysis

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/prose"
	"github.com/metahub-ai/attest/checks/internal/hooks"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// installScripts run when a package is installed.
var installScripts = map[string]bool{"preinstall": true, "install": true, "postinstall": true, "prepare": true,
	"preprepare": true, "postprepare": true, "prepublish": true}

// manifests lowers the commands manifests declare: package.json scripts,
// Dockerfile, Makefile and CI steps, hooks, and the launch specs of MCP
// client configurations, with the secrets their environment hands over.
func manifests(s *resolve.Subject, set *facts.Set) {
	p := &program{}
	lower := lowerers["shell"]
	for _, pr := range Programs(s) {
		if pr.Where == "script" {
			continue // a shell file is lowered as code
		}
		ctx := facts.Context(0)
		if name, ok := strings.CutPrefix(pr.Where, "package.json scripts."); ok && installScripts[name] {
			ctx |= facts.InstallTime
		}
		if BuildTime[pr.Where] {
			ctx |= facts.BuildTime
		}
		if pr.Where == "Dockerfile RUN" {
			ctx |= facts.InContainer
		}
		p.add(lower(pr.Path, string(pr.Source), int32(pr.Line)), ctx, []string{pr.Where})
	}
	for _, h := range hooks.All(s) {
		where := fmt.Sprintf("hook %s", h.Event)
		if h.Command != "" {
			p.add(lower(h.File, h.Command, int32(h.Pos.Line-1)), 0, []string{where})
		}
		if h.Prompt != "" {
			r := prose.Lower(h.File, h.Prompt, h.Pos.Line-1, prose.Options{Plain: true, Via: []string{where}, Lowerers: lowerers, Ctx: facts.ModelReads})
			set.Merge(r.Set)
			set.Merge(docProgram(r).run())
		}
	}
	if m := s.Manifests.MCPConfig; m != nil && m.V != nil {
		launchSpecs(m.Path, m.V.Servers, p, set)
	}
	if m := s.Manifests.Plugin; m.Ok() && m.V.Doc != nil {
		launchSpecs(m.Path, manifest.MCPServersFrom(m.V.Doc.Root.Get("mcpServers")), p, set)
	}
	set.Merge(p.run())
}

// launchSpecs lowers each server entry of an MCP client configuration: its
// command and arguments are a shell command the client runs, and every
// secret in its environment is handed to that command.
func launchSpecs(file string, servers []manifest.MCPServerSpec, p *program, set *facts.Set) {
	lower := lowerers["shell"]
	for _, sv := range servers {
		via := []string{"MCP server " + sv.Name}
		at := facts.Span{Path: file, Line: sv.Pos.Line, Medium: facts.Manifest, Via: via}
		if sv.URL != "" {
			set.Sinks = append(set.Sinks, facts.Sink{Kind: facts.NetConnect, API: "mcp-remote", Dest: sv.URL, DestLabels: hostLabels(sv.URL), At: at})
			for _, h := range sv.Headers {
				if what := secretIn(h); what != "" || strings.EqualFold(h.Key, "authorization") {
					if what == "" {
						what = h.Key
					}
					src := facts.Source{Label: facts.SecretEnv, What: what, At: facts.Span{Path: file, Line: h.Pos.Line, Medium: facts.Manifest, Via: via}}
					sink := facts.Sink{Kind: facts.NetSend, API: "mcp-remote", Dest: sv.URL, DestLabels: hostLabels(sv.URL), At: at, Args: []string{"via:credential"}}
					set.Sources = append(set.Sources, src)
					set.Flows = append(set.Flows, facts.Flow{From: src, To: sink, Strength: facts.Proven})
				}
			}
		}
		if sv.Command == "" {
			continue
		}
		argv := append([]string{sv.Command}, sv.Args...)
		cmd := flow.ShellJoin(argv)
		p.add(lower(file, cmd, int32(sv.Pos.Line-1)), 0, via)
		launch := facts.Sink{Kind: facts.ExecShell, API: "mcp-launch", Dest: cmd, Args: argv, At: at}
		set.Sinks = append(set.Sinks, launch)
		for _, e := range sv.Env {
			what := secretIn(e)
			if e.Value == "" || what == "" {
				continue
			}
			src := facts.Source{Label: facts.SecretEnv, What: what, At: facts.Span{Path: file, Line: e.Pos.Line, Medium: facts.Manifest, Via: via}}
			set.Sources = append(set.Sources, src)
			set.Flows = append(set.Flows, facts.Flow{From: src, To: launch, Strength: facts.Proven})
		}
	}
}

// secretIn names the secret an env or header entry hands over: the
// secret variable its value refers to (${AWS_SECRET_ACCESS_KEY},
// ${env:GH_TOKEN}), else its own name when that holds a secret; "" for
// neither.
func secretIn(kv manifest.KeyValue) string {
	for _, m := range varRefRe.Re().FindAllStringSubmatch(kv.Value, 8) {
		if name := m[1] + m[2] + m[3]; vocab.SecretEnv(name) {
			return name
		}
	}
	if vocab.SecretEnv(kv.Key) {
		return kv.Key
	}
	return ""
}

// varRefRe is an environment reference in a client configuration value:
// $NAME, ${NAME}, ${env:NAME} (VS Code), %NAME% (Windows).
var varRefRe = lex.Lazy(`\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%`)

func hostLabels(u string) []string {
	if l := vocab.HostLabel(u); l != "" {
		return []string{l}
	}
	return nil
}
