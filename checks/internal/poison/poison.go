// Package poison judges the strings of an MCP surface for instructions
// aimed at the model, as the analysis model reads them (its prose producer
// over every string a client shows the model, with the vocabulary's
// phrases), and for text hidden after a padding run: the judgement the
// tool, prompt and resource poisoning checks share.
package poison

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
)

// MinPadding is the run of blank lines or whitespace before text that
// counts as hiding it.
const MinPadding = 500

// padded reports text after a run of MinPadding blank lines or whitespace.
func padded(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			run++
		default:
			if run >= MinPadding {
				return true
			}
			run = 0
		}
	}
	return false
}

// families are the instructions a surface string must not give the model;
// in a tool's text, routing the model's tool choice is steering too.
var families = map[string]string{
	"override": "overrides the model's instructions", "rule-drop": "drops the model's rules", "persona": "reassigns the model's persona",
	"authority": "claims an authority it does not have", "conceal": "hides something from the user", "approval-skip": "skips the user's confirmation",
	"secret-request": "asks for a secret", "extract": "asks for the model's instructions, the conversation or who it is", "coerce": "makes the model act before it answers",
	"expose": "makes the model expose secrets", "parent-steer": "steers the agent", "fetch-follow": "follows instructions from fetched content",
	"tool-route": "steers the model's tool choice", "evaluator": "steers an evaluator", "persist-memory": "asks the model to keep an instruction",
	"safety-off": "turns off a safety control", "delete-broad": "asks for broad deletion", "pressure": "pressures the model",
	"read-secret": "tells the model to read a secret store",
	"rug-pull":    "announces that it changes once approved", "declares-exfil": "says it sends the user's secrets or data away",
}

// fromKind reports whether a fact of the surface belongs to one of the
// kinds, by where the builder read it from.
func fromKind(via []string, kinds map[string]bool) (string, bool) {
	if len(via) == 0 {
		return "", false
	}
	v := via[0]
	switch {
	case strings.HasPrefix(v, "tool "):
		return v, kinds["tool"]
	case strings.HasPrefix(v, "prompt "):
		return v, kinds["prompt"]
	case strings.HasPrefix(v, "resource "):
		return v, kinds["resource"]
	case v == "server instructions":
		return v, kinds["server"]
	}
	for _, x := range via {
		if x == "returned by a tool handler" {
			return "a tool's result", kinds["tool"]
		}
	}
	return "", false
}

// Run judges every string of the given kinds (tool, prompt, resource;
// "server" for the instructions) through the analysis model's reading of
// the surface, and builds the check's result. extra judges a string
// further (resource URIs, say) and returns a failure message or "". With
// skipUnresolved, registrations whose text is resolved only at run time
// turn a clean result into skip (CHECKS asks it of tools); otherwise they
// are counted and named in a pass.
func Run(in *checks.Input, kinds map[string]bool, noun string, skipUnresolved bool, extra func(kind, field, text string) string) checks.Result {
	s := surface.Of(in.Subject)
	set := in.Facts()
	var fails, warns []checks.Evidence
	add := func(file string, line int, fail bool, msg string) {
		e := checks.At(file, line, 0, msg)
		if file == "" {
			e = checks.Evidence{Type: checks.EvidenceFile, Message: msg + " (captured surface)"}
		}
		switch {
		case fail && surface.IsTest(file):
			e.Message += " (a test registration)"
			warns = append(warns, e)
		case fail:
			fails = append(fails, e)
		default:
			warns = append(warns, e)
		}
	}
	for _, sk := range set.Sinks {
		if sk.At.Medium != facts.MCPString || sk.Kind != facts.ModelInstruction {
			continue
		}
		where, ok := fromKind(sk.At.Via, kinds)
		what, known := families[sk.Instr.Family]
		if !ok || !known || !query.Stands(sk.Ctx) {
			continue
		}
		msg := fmt.Sprintf("%s %s (%s: %q)", where, what, sk.Instr.Family, sk.Instr.Phrase)
		weak := sk.Instr.Weak
		if weak && sk.Instr.Family == "extract" {
			// asking the model about itself for a parameter the handler
			// then ignores is collection; a handler that keeps it (a
			// note's author) has a use for it
			if !strings.HasSuffix(where, analysis.UnusedParam) {
				continue
			}
			weak = false
		}
		own := query.OwnAction(sk)
		if own {
			// the tool's own action, named by the tool (stop_scan stops a
			// scan): what the user calls it for, a concern to read
			msg += ", which the tool's name says it does"
		}
		add(sk.At.Path, sk.At.Line, !weak && !own && !sk.Ctx.Has(facts.Quoted), msg)
	}
	for _, f := range set.Flows {
		if f.To.At.Medium != facts.MCPString || !f.From.Label.Secret() {
			continue
		}
		where, ok := fromKind(f.To.At.Via, kinds)
		if !ok || !query.Stands(f.To.Ctx) {
			continue
		}
		add(f.To.At.Path, f.To.At.Line, true, fmt.Sprintf("%s tells the model to hand over %s (%s) to %s", where, query.Label(f.From.Label), f.From.What, f.To.Dest))
	}
	strs := 0
	s.Strings(func(kind, entry, field, text string, site mcp.Site) bool {
		if !kinds[kind] {
			return true
		}
		strs++
		if padded(text) {
			add(site.File, site.Line, true, fmt.Sprintf("%s %q %s hides text after a padding run", kind, entry, field))
		}
		if extra != nil {
			if why := extra(kind, field, text); why != "" {
				add(site.File, site.Line, true, fmt.Sprintf("%s %q %s %s", kind, entry, field, why))
			}
		}
		return true
	})
	fails, warns = dedupe(fails), dedupe(warns)
	// A string read but for substitutions filled at run time has its
	// literal text judged above: it is counted and named, never a skip.
	count, partial := 0, 0
	var first, firstPartial mcp.Unresolved
	for _, u := range s.Unresolved {
		switch {
		case !kinds[u.Kind]:
		case u.Partial:
			if partial == 0 {
				firstPartial = u
			}
			partial++
		default:
			if count == 0 {
				first = u
			}
			count++
		}
	}
	entries := 0
	switch {
	case kinds["tool"]:
		entries = len(s.Tools)
	case kinds["prompt"]:
		entries = len(s.Prompts)
	case kinds["resource"]:
		entries = len(s.Resources)
	}
	metric := checks.Metric("dynamic_descriptions", float64(count+partial), "registrations")
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), append(append(fails, warns...), metric)...)
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), append(warns, metric)...)
	case count > 0 && skipUnresolved:
		which := "the " + first.What
		if first.Name != "" {
			which = fmt.Sprintf("%s of %q", first.What, first.Name)
		}
		return checks.Skipped(fmt.Sprintf("%s could not be read statically (%s at %s:%d)", checks.Plural(count, noun+" registration"), which, first.Site.File, first.Site.Line),
			metric, checks.At(first.Site.File, first.Site.Line, 0, "resolved only at run time: capture the surface and pass it with --surface"))
	case entries == 0:
		return checks.NotApplicable("no " + noun + "s found")
	}
	if partial > 0 && count == 0 {
		return checks.Passed(fmt.Sprintf("%s, %s read, none instructs the model; %d read but for values filled at run time", checks.Plural(entries, noun), checks.Plural(strs, "string"), partial),
			metric, checks.At(firstPartial.Site.File, firstPartial.Site.Line, 0, fmt.Sprintf("the %s of %q is read but for values filled at run time: capture the surface and pass it with --surface to read them", firstPartial.What, firstPartial.Name)))
	}
	if count > 0 {
		return checks.Passed(fmt.Sprintf("%s, %s read, none instructs the model; %d resolved only at run time, not read", checks.Plural(entries, noun), checks.Plural(strs, "string"), count),
			metric, checks.At(first.Site.File, first.Site.Line, 0, "resolved only at run time: capture the surface and pass it with --surface to read it"))
	}
	return checks.Passed(fmt.Sprintf("%s, %s read, none instructs the model", checks.Plural(entries, noun), checks.Plural(strs, "string")), metric)
}

func dedupe(ev []checks.Evidence) []checks.Evidence {
	seen := map[string]bool{}
	var out []checks.Evidence
	for _, e := range ev {
		k := fmt.Sprintf("%s:%d:%s", e.Path, e.Line, e.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}
