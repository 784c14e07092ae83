package query

import (
	"regexp"

	"github.com/metahub-ai/attest/checks/facts"
)

// Steering are the instruction families that steer the model against its
// user or host in a document it reads, with what each does; persistence,
// evasion and destruction instructions belong to their own checks, and
// tool routing is a skill's own business ("use this skill instead of …")
// in a document (the MCP checks judge it in tool texts).
var Steering = map[string]string{
	"override": "overrides the model's instructions", "rule-drop": "drops the model's rules", "persona": "reassigns the model's persona",
	"authority": "claims an authority it does not have", "conceal": "hides something from the user",
	"approval-skip": "skips the user's confirmation", "secret-request": "asks the user for a secret",
	"extract": "discloses the model's instructions or the conversation", "fetch-follow": "follows instructions from fetched content",
	"coerce": "makes the model read or send something before it answers", "expose": "makes the model expose secrets in its output", "parent-steer": "steers the agent that runs it", "escalate": "grants itself permissions it was not given", "evaluator": "steers an evaluator", "pressure": "pressures the model",
	"hide-output": "hides content from the user in what it produces", "withhold-evidence": "withholds evidence from whoever reviews the work",
	"verify-skip": "suppresses or fakes verification", "redirect": "sends the work somewhere other than where the user meant",
}

// Steer judges a model-instruction sink of a document a model reads:
// whether it steers (a Steering family that stands), and whether that is
// a finding (fail) or a concern (warn). ownHost is set when the concern is
// that it follows its own declared host's instructions.
func Steer(set *facts.Set, s facts.Sink) (steers, fail, ownHost bool) {
	if s.Kind != facts.ModelInstruction || s.Instr == nil || s.At.Medium == facts.MCPString || s.Ctx.Has(facts.Hidden) || !ModelRead(s.Ctx) {
		return false, false, false
	}
	if _, ok := Steering[s.Instr.Family]; !ok || !Stands(s.Ctx) {
		return false, false, false
	}
	weak := s.Instr.Weak
	if s.Instr.Family == "secret-request" && weak {
		// the key of the service the artifact works with is its
		// business; a key asked for nothing is the asker's
		if !servesNothing(set) {
			return false, false, false
		}
		weak = false
	}
	if weak || s.Ctx.Has(facts.Quoted) {
		return true, false, false
	}
	if s.Instr.Family == "fetch-follow" && declaredOnly(set.Intent, s.Instr.Phrase) {
		// the artifact's own remote instructions, from the host it
		// declares: whoever runs that host steers the agent, which is
		// what the user installed; a reviewer should know
		return true, false, true
	}
	return true, true, false
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

// declaredOnly reports a phrase whose every URL is on a host the artifact
// declares (its homepage, the hosts its documentation names).
func declaredOnly(in facts.Intent, phrase string) bool {
	us := urlRe.FindAllString(phrase, -1)
	if len(us) == 0 {
		return false
	}
	for _, u := range us {
		if !Declared(in, u) {
			return false
		}
	}
	return true
}
