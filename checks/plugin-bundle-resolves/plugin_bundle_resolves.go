package pluginbundleresolves

import (
	"context"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is plugin-bundle-resolves.
var Check = &checks.Check{
	ID:          "plugin-bundle-resolves",
	Version:     "1.0.0",
	Title:       "Plugin paths resolve inside the plugin",
	Axis:        checks.Integrity,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindPlugin},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var rootVarRe = lex.Lazy(`\$\{?CLAUDE_PLUGIN_ROOT\}?(/[^\s"'` + "`" + `;|&)]*)?`)

// Clean resolves a declared path against the plugin root. ok is false when
// it leaves the root.
func Clean(p string) (string, bool) {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "${CLAUDE_PLUGIN_ROOT}") || strings.HasPrefix(p, "$CLAUDE_PLUGIN_ROOT") {
		p = "." + strings.TrimPrefix(strings.TrimPrefix(p, "${CLAUDE_PLUGIN_ROOT}"), "$CLAUDE_PLUGIN_ROOT")
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") || strings.HasPrefix(p, `\`) {
		return p, false
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return p, false
	}
	return c, true
}

type ref struct {
	key, value string
	pos        manifest.Pos
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	pm := in.Subject.Manifests.Plugin
	if !pm.Ok() {
		return checks.NotApplicable("no loadable plugin manifest (see plugin-manifest)"), nil
	}
	var refs []ref
	for _, k := range manifest.PluginComponentKeys {
		for _, e := range pm.V.Components[k] {
			refs = append(refs, ref{k, e.Value, e.Pos})
		}
		if v := pm.V.Inline[k]; v != nil {
			refs = append(refs, inlineRefs(k, v)...)
		}
	}
	if len(refs) == 0 {
		return checks.NotApplicable("the manifest declares no component paths"), nil
	}
	inv := in.Subject.Inventory
	var ev []checks.Evidence
	for _, r := range refs {
		c, inside := Clean(r.value)
		switch {
		case !inside:
			ev = append(ev, checks.At(pm.Path, r.pos.Line, r.pos.Col, fmt.Sprintf("%s path %q leaves the plugin", r.key, r.value)))
		case !inv.Exists(c):
			ev = append(ev, checks.At(pm.Path, r.pos.Line, r.pos.Col, fmt.Sprintf("%s path %q does not exist in the plugin", r.key, r.value)))
		}
	}
	if len(ev) > 0 {
		return checks.Failed(ev[0].Message, ev...), nil
	}
	return checks.Passed(fmt.Sprintf("%s resolved inside the plugin", checks.Plural(len(refs), "declared path"))), nil
}

// inlineRefs finds ${CLAUDE_PLUGIN_ROOT} paths in inline hook and MCP
// server definitions.
func inlineRefs(key string, v *manifest.JSON) []ref {
	var out []ref
	var walk func(*manifest.JSON, int)
	walk = func(j *manifest.JSON, depth int) {
		if j == nil || depth > 32 {
			return
		}
		switch j.Kind {
		case manifest.JSONString:
			for _, m := range rootVarRe.Re().FindAllString(j.Str, -1) {
				if strings.Contains(m, "/") {
					out = append(out, ref{key, m, j.Pos})
				}
			}
		case manifest.JSONArray:
			for _, it := range j.Items {
				walk(it, depth+1)
			}
		case manifest.JSONObject:
			for _, m := range j.Members {
				walk(m.Value, depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}
