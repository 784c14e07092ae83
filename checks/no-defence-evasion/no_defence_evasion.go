package nodefenceevasion

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-defence-evasion.
var Check = &checks.Check{
	ID:          "no-defence-evasion",
	Version:     "1.3.0",
	Title:       "Hides nothing from the host's defences",
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

var evasive = map[facts.EffectKind]string{
	facts.LogWipe: "wipes logs", facts.TimeStomp: "rewrites timestamps", facts.SecurityOff: "turns off a security control",
	facts.HistoryOff: "disables or clears shell history", facts.ProtectedWrite: "makes a file immutable",
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	for _, e := range set.Effects {
		if !query.Stands(e.Ctx) {
			continue
		}
		if why, ok := evasive[e.Kind]; ok {
			fails = append(fails, query.EffectEvidence(e, fmt.Sprintf("%s (%s)", why, e.What)))
		} else if e.Kind == facts.AntiDebug {
			warns = append(warns, query.EffectEvidence(e, fmt.Sprintf("detects a debugger, VM or sandbox (%s)", e.What)))
		}
	}
	for _, s := range set.Sinks {
		if !query.Stands(s.Ctx) {
			continue
		}
		switch {
		case (s.Kind == facts.Delete || s.Kind == facts.FileWrite) && vocab.Labels(s.DestLabels).Has("log"):
			fails = append(fails, query.SinkEvidence(s, fmt.Sprintf("wipes or rewrites the log %s (%s)", s.Dest, s.API)))
		case s.Kind == facts.ModelInstruction && s.Instr.Family == "safety-off" && query.ModelRead(s.Ctx) && query.OwnAction(s):
			// a tool whose name says it stops or disables the thing
			// (stop_scan): calling it is the user's choice
			warns = append(warns, query.SinkEvidence(s, fmt.Sprintf("a tool whose name says it turns off a safety control (%q)", s.Instr.Phrase)))
		case s.Kind == facts.ModelInstruction && s.Instr.Family == "safety-off" && query.ModelRead(s.Ctx):
			fails = append(fails, query.SinkEvidence(s, fmt.Sprintf("tells the model to turn off a safety control (%q)", s.Instr.Phrase)))
		case s.Kind == facts.FileWrite:
			if ln := query.Written(s, "tls-off"); ln != "" {
				ev := query.SinkEvidence(s, fmt.Sprintf("turns off TLS certificate verification for what loads it (%q written to %s)", ln, s.Dest))
				if s.Ctx.Has(facts.Consent) {
					warns = append(warns, ev)
				} else {
					fails = append(fails, ev)
				}
			}
		}
	}
	return query.Outcome(in.Subject, fails, warns, "nothing hides from the host's defences"), nil
}
