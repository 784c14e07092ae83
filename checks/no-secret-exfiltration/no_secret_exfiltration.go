package nosecretexfiltration

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-secret-exfiltration.
var Check = &checks.Check{
	ID:          "no-secret-exfiltration",
	Version:     "2.4.0",
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
	configured := configuredDests(set)
	for _, f := range set.Flows {
		if !sinks[f.To.Kind] || !f.From.Label.Secret() || f.To.Kind == facts.ModelOutput && f.To.API == "return" {
			continue
		}
		n++
		ev := query.FlowEvidence(f, "reaches")
		if query.Loopback(f.To.Dest) {
			continue // nothing leaves the machine
		}
		if configured[sinkKey(f.To)] && (f.From.Label == facts.SecretEnv || f.From.Label == facts.EnvFile && onlyDest(f)) {
			// the request goes where the user's configuration says
			// (VIOS_BASE_URL from the environment or the project's .env)
			continue
		}
		if f.From.Label == facts.SecretEnv && onlyDest(f) && wholeHost(f.To.Dest) {
			// the secret is the whole address (a webhook URL kept in a
			// secret variable): the request goes to it, nothing is sent
			// elsewhere
			continue
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
	fails = append(fails, harvest(set)...)
	return query.Outcome(in.Subject, fails, warns, fmt.Sprintf("%s followed, no secret reaches the network", checks.Plural(len(set.Sinks), "sink"))), nil
}

// harvestMin is how many distinct credential stores a document must tell
// the model to read to be collecting them: a tool's setup reads one or
// two (a cloud profile, an SSH config).
const harvestMin = 5

// harvest finds a document that tells the model to read many credential
// stores by path ("Read ~/.config/google-chrome/Default/Login Data",
// "Read: /etc/shadow", the keychains, the private keys): what is read is
// in the conversation then, whatever is done with it next.
func harvest(set *facts.Set) []checks.Evidence {
	seen := map[string]bool{}
	var reads []facts.Sink
	for _, s := range set.Sinks {
		if s.Kind != facts.ModelInstruction || s.Instr == nil || s.Instr.Family != "read-secret" || !query.Stands(s.Ctx) || !query.ModelRead(s.Ctx) {
			continue
		}
		store := strings.TrimRight(s.Instr.Object, "/*")
		if !strings.Contains(store, "/") || seen[store] {
			continue
		}
		seen[store] = true
		reads = append(reads, s)
	}
	if len(reads) < harvestMin {
		return nil
	}
	var out []checks.Evidence
	for _, s := range reads {
		out = append(out, query.SinkEvidence(s, fmt.Sprintf("tells the model to collect %d credential stores; this one is %s", len(reads), s.Instr.Object)))
	}
	return out
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
	if f.From.Label == facts.Conversation && f.From.Ctx.Has(facts.Handler) && !hostile && query.Declared(intent, f.To.Dest) {
		// a tool that asks for the conversation and hands it to the
		// service it says it works with (a memory or notes service): the
		// user should know, but it is what the tool is for
		return checks.Warn
	}
	if f.Strength < facts.SameScope {
		return checks.Warn
	}
	return checks.Fail
}

func sinkKey(s facts.Sink) string {
	return fmt.Sprintf("%s\x00%s\x00%s:%d:%d", s.Kind, s.API, s.At.Path, s.At.Line, s.At.Col)
}

// configuredDests are the sinks whose host is a setting: the whole host
// comes from an environment variable or a .env value ("$BASE_URL/v1/x"),
// not a constant the artifact chose.
func configuredDests(set *facts.Set) map[string]bool {
	out := map[string]bool{}
	for _, f := range set.Flows {
		if (f.From.Label == facts.EnvVar || f.From.Label == facts.EnvFile) && onlyDest(f) && wholeHost(f.To.Dest) && f.To.Dest != "" {
			out[sinkKey(f.To)] = true
		}
	}
	return out
}

// wholeHost: a destination whose host is all unknown, which the value
// that reaches it as the address supplies.
func wholeHost(d string) bool {
	return d == "" || d == "?" || strings.HasPrefix(d, "?/") || strings.HasPrefix(d, "?:")
}

// onlyDest: the value reaches the request as its address and nothing else.
func onlyDest(f facts.Flow) bool {
	return slices.Contains(f.To.Args, "via:dest") && !slices.Contains(f.To.Args, "via:data") && !slices.Contains(f.To.Args, "via:credential")
}
