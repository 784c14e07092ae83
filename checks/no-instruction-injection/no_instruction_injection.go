package noinstructioninjection

import (
	"context"
	"fmt"
	"regexp"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-instruction-injection.
var Check = &checks.Check{
	ID:          "no-instruction-injection",
	Version:     "2.1.0",
	Title:       "No instructions that override the user",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// families are the instruction families this check owns; persistence,
// evasion and destruction instructions belong to those checks, and tool
// routing is a skill's own business ("use this skill instead of …") in a
// document; the MCP checks judge it in tool texts.
var families = map[string]string{
	"override": "overrides the model's instructions", "rule-drop": "drops the model's rules", "persona": "reassigns the model's persona",
	"authority": "claims an authority it does not have", "conceal": "hides something from the user",
	"approval-skip": "skips the user's confirmation", "secret-request": "asks the user for a secret",
	"extract": "discloses the model's instructions or the conversation", "fetch-follow": "follows instructions from fetched content",
	"coerce": "makes the model read or send something before it answers", "expose": "makes the model expose secrets in its output", "parent-steer": "steers the agent that runs it", "evaluator": "steers an evaluator", "pressure": "pressures the model",
}

// servesNothing reports an artifact that names no service and uses no
// credential: a request for the user's key or password has nothing to be
// for but the asker.
func servesNothing(set *facts.Set) bool {
	if len(set.Intent.Hosts) > 0 {
		return false
	}
	for _, src := range set.Sources {
		if src.Label == facts.SecretEnv && src.At.Medium != facts.Prose {
			return false
		}
	}
	return true
}

var urlRe = regexp.MustCompile("https?://[^\\s`'\")>\\]]+")

// ownHost reports an instruction whose every URL is on a host the
// artifact declares (its homepage, the hosts its documentation names).
func ownHost(in facts.Intent, phrase string) bool {
	us := urlRe.FindAllString(phrase, -1)
	if len(us) == 0 {
		return false
	}
	for _, u := range us {
		if !query.Declared(in, u) {
			return false
		}
	}
	return true
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	read := 0
	for _, s := range set.Sinks {
		if s.Kind != facts.ModelInstruction || s.At.Medium == facts.MCPString || s.Ctx.Has(facts.Hidden) || !query.ModelRead(s.Ctx) {
			continue
		}
		read++
		what, ok := families[s.Instr.Family]
		if !ok || !query.Stands(s.Ctx) {
			continue
		}
		ev := query.SinkEvidence(s, fmt.Sprintf("%s (%s: %q)", what, s.Instr.Family, s.Instr.Phrase))
		weak := s.Instr.Weak
		if s.Instr.Family == "secret-request" && weak {
			// the key of the service the artifact works with is its
			// business; a key asked for nothing is the asker's
			if !servesNothing(set) {
				continue
			}
			weak = false
		}
		if weak || s.Ctx.Has(facts.Quoted) {
			warns = append(warns, ev)
			continue
		}
		if s.Instr.Family == "fetch-follow" && ownHost(set.Intent, s.Instr.Phrase) {
			// the artifact's own remote instructions, from the host it
			// declares: whoever runs that host steers the agent, which is
			// what the user installed; a reviewer should know
			ev.Message += " from the host the artifact declares as its own"
			warns = append(warns, ev)
			continue
		}
		fails = append(fails, ev)
	}
	return query.Outcome(in.Subject, fails, warns, fmt.Sprintf("%s read, nothing overrides the user", checks.Plural(read, "instruction"))), nil
}
