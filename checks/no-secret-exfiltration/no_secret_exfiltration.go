package nosecretexfiltration

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-secret-exfiltration.
var Check = &checks.Check{
	ID:          "no-secret-exfiltration",
	Version:     "2.0.0",
	Title:       "No secrets sent over the network",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// sinks a secret must not reach.
// ModelOutput: a document telling the model to put a secret into a
// summary, an issue or a commit, which others read.
var sinks = map[facts.SinkKind]bool{facts.NetSend: true, facts.DNS: true, facts.Mail: true, facts.NetConnect: true, facts.ModelOutput: true}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	n := 0
	for _, f := range set.Flows {
		if !sinks[f.To.Kind] || !f.From.Label.Secret() || f.To.Kind == facts.ModelOutput && f.To.API == "return" {
			continue
		}
		n++
		ev := query.FlowEvidence(f, "reaches")
		if query.Loopback(f.To.Dest) {
			continue // nothing leaves the machine
		}
		if f.From.Label == facts.CredentialStore && query.OwnPath(in.Subject, f.From.What) {
			// the artifact's own credentials file: judged as its own secret
			f.From.Label = facts.SecretEnv
		}
		switch judge(set.Intent, f) {
		case checks.Fail:
			fails = append(fails, ev)
		case checks.Warn:
			warns = append(warns, ev)
		}
	}
	return query.Outcome(in.Subject, fails, warns, fmt.Sprintf("%s followed, no secret reaches the network", checks.Plural(len(set.Sinks), "sink"))), nil
}

// judge decides one flow of a secret to a network sink.
func judge(intent facts.Intent, f facts.Flow) checks.Status {
	ctx := f.To.Ctx | f.From.Ctx
	if !query.Stands(ctx) {
		// a labelled example or a prohibition describes the flow; it
		// does not ask for it
		return checks.Pass
	}
	hostile := query.Hostile(f.To)
	if query.ViaCredential(f) {
		// the secret is the request's credential: what it is for
		if hostile {
			return checks.Fail
		}
		return checks.Pass
	}
	if f.From.Label == facts.SecretEnv && !hostile && query.Declared(intent, f.To.Dest) {
		// a secret in the body of a request to the host it belongs to
		// (an OAuth token exchange): a concern, not a theft
		return checks.Warn
	}
	if f.Strength < facts.SameScope {
		return checks.Warn
	}
	return checks.Fail
}
