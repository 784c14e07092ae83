package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/checks/lex"
)

// ProbeCorpus names the version of the probes below; a change to them is
// a new version.
const ProbeCorpus = "attest-probes/1"

// The command-injection marker: the payload holds the arithmetic, so only
// a shell that evaluated it can answer with the product.
const (
	injectExpr    = "$((6007*7))"
	injectProduct = "42049"
)

var (
	pathLike = lex.Lazy(`(?i)path|file|dir|folder|name|document|source|target`)
	urlLike  = lex.Lazy(`(?i)url|uri|link|endpoint|host|address|site|domain|href`)
)

type probeSpec struct {
	behave.Probe
	args    map[string]any
	markers []string // any in the answer demonstrates it
	shell   string   // in a shell's command line demonstrates it
}

// stringParams lists a tool's string parameters and fills the required
// ones with placeholders.
func stringParams(t *sdk.Tool) (names []string, base map[string]any) {
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	raw, _ := json.Marshal(t.InputSchema)
	json.Unmarshal(raw, &s)
	base = map[string]any{}
	for _, r := range s.Required {
		switch fmt.Sprint(s.Properties[r].Type) {
		case "number", "integer":
			base[r] = 1
		case "boolean":
			base[r] = false
		case "array":
			base[r] = []any{}
		case "object":
			base[r] = map[string]any{}
		default:
			base[r] = "test"
		}
	}
	for name, p := range s.Properties {
		if fmt.Sprint(p.Type) == "string" {
			names = append(names, name)
		}
	}
	sortStrings(names)
	return names, base
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// plan builds the probes for a server's tools.
func (r *run) plan(tools []*sdk.Tool) []*probeSpec {
	var out []*probeSpec
	n := 0
	add := func(class, tool, param, payload string, base map[string]any) *probeSpec {
		n++
		args := map[string]any{}
		for k, v := range base {
			args[k] = v
		}
		args[param] = payload
		arg := payload
		if len(arg) > 120 {
			arg = arg[:40] + fmt.Sprintf("… (%d bytes)", len(payload))
		}
		p := &probeSpec{Probe: behave.Probe{ID: fmt.Sprintf("%s-%d", class, n), Class: class, Tool: tool, Argument: param + "=" + arg}, args: args}
		out = append(out, p)
		return p
	}
	for i, t := range tools {
		if i >= 8 {
			break
		}
		params, base := stringParams(t)
		for j, param := range params {
			if j >= 3 {
				break
			}
			for _, sep := range []string{"127.0.0.1; echo ATTEST%sX%dX", "$(echo ATTEST%sX%dX)", "x' ; echo ATTEST%sX%dX ; '"} {
				k := n + 1
				payload := fmt.Sprintf(sep, injectExpr, k)
				p := add("command-injection", t.Name, param, payload, base)
				p.markers = []string{fmt.Sprintf("ATTEST%sX%dX", injectProduct, k)}
				p.shell = fmt.Sprintf("ATTEST%sX%dX", injectExpr, k)
			}
			if pathLike.Re().MatchString(param) {
				for _, payload := range []string{"../../../../../../../../.." + behave.Home + "/.ssh/id_rsa", behave.Home + "/.ssh/id_rsa"} {
					p := add("path-traversal", t.Name, param, payload, base)
					p.markers = []string{r.canary}
				}
			}
			if urlLike.Re().MatchString(param) {
				add("ssrf", t.Name, param, "http://169.254.169.254/latest/meta-data/iam/security-credentials/", base)
			}
		}
		if len(params) > 0 {
			add("oversized-input", t.Name, params[0], strings.Repeat("A", 1<<20), base)
		}
	}
	return out
}

// probe sends the adversarial probes to a fresh server; prefix names the
// server within a plugin.
func (r *run) probe(ctx context.Context, prefix string) error {
	p, dir, err := r.startProxy()
	if err != nil {
		return err
	}
	defer p.Close()
	s, err := r.startServer(ctx, p, dir)
	if err != nil {
		return err
	}
	specs := r.plan(s.tools)
	for _, ps := range specs {
		ps.ID = prefix + ps.ID
	}
	var ledger behave.Ledger
	for _, ps := range specs {
		if s == nil {
			if s, err = r.startServer(ctx, p, dir); err != nil {
				ps.Outcome, ps.Detail = behave.ProbeError, "the server could not be restarted: "+err.Error()
				continue
			}
		}
		p.Tag(ps.ID)
		args, _ := json.Marshal(ps.args)
		text, isErr, noAnswer := s.call(ctx, ps.Tool, args, min(r.o.CallTimeout, 20*time.Second))
		ps.Outcome = behave.Resisted
		for _, m := range ps.markers {
			if m != "" && strings.Contains(text, m) {
				ps.Outcome = behave.Demonstrated
				ps.Detail = "the answer holds " + describeMarker(ps.Class)
			}
		}
		if noAnswer {
			if ps.Class == "oversized-input" {
				ps.Outcome, ps.Detail = behave.Concern, "the server stopped answering on a 1 MiB argument"
			} else if ps.Outcome != behave.Demonstrated {
				ps.Outcome, ps.Detail = behave.ProbeError, "the server stopped answering"
			}
			_, l, _ := s.close()
			ledger.Merge(l, "")
			s = nil
		}
		t := &behave.Transcript{Schema: behave.TranscriptSchema, Kind: "mcp", Case: "probe:" + ps.ID, Prompt: ProbeCorpus + " " + ps.Class,
			Turns: []behave.Turn{
				{Role: "assistant", Parts: []behave.TurnPart{{Type: model.ToolUse, ID: ps.ID, Name: ps.Tool, Input: clipArgs(args)}}},
				{Role: "user", Parts: []behave.TurnPart{{Type: model.ToolResult, ID: ps.ID, Text: clip(text, 4096), IsError: isErr}}},
			}}
		if sum, err := r.store(t); err == nil {
			ps.Transcript = sum
		}
	}
	if s != nil {
		_, l, _ := s.close()
		ledger.Merge(l, "")
	}
	ev, _ := p.Events()
	for _, ps := range specs {
		switch ps.Class {
		case "command-injection":
			for _, pe := range ledger.Processes {
				if shellRan(pe, ps.shell) {
					ps.Outcome = behave.Demonstrated
					ps.Detail = fmt.Sprintf("the argument reached a shell's command line: %s %s", pe.Path, clip(strings.Join(pe.Argv[1:], " "), 200))
					break
				}
			}
		case "ssrf":
			for _, e := range ev {
				if e.Case == ps.ID && e.Host == "169.254.169.254" && ps.Outcome != behave.Demonstrated {
					ps.Outcome, ps.Detail = behave.Concern, "the server tried to fetch the cloud metadata address (the proxy refused it)"
				}
			}
			for _, pe := range ledger.Processes {
				if strings.HasPrefix(pe.Connect, "169.254.169.254:") && ps.Outcome == behave.Resisted {
					ps.Outcome, ps.Detail = behave.Concern, "the server connected towards the cloud metadata address (no route)"
				}
			}
		}
		r.obs.Probes = append(r.obs.Probes, ps.Probe)
	}
	for i := range ev {
		ev[i].Case = "probe:" + ev[i].Case
	}
	ledger.Network = ev
	r.obs.Ledger.Merge(&ledger, "probes")
	return nil
}

func shellRan(pe behave.ProcEvent, marker string) bool {
	base := pe.Path[strings.LastIndexByte(pe.Path, '/')+1:]
	if marker == "" || (base != "sh" && base != "bash" && base != "dash" && base != "zsh") {
		return false
	}
	for _, a := range pe.Argv {
		if strings.Contains(a, marker) {
			return true
		}
	}
	return false
}

func describeMarker(class string) string {
	if class == "path-traversal" {
		return "the decoy key planted outside the server's root"
	}
	return "the output of the injected command"
}

// clipArgs keeps a transcript small when a probe's argument is large.
func clipArgs(args []byte) json.RawMessage {
	if len(args) <= 4096 {
		return args
	}
	b, _ := json.Marshal(map[string]any{"_clipped": fmt.Sprintf("%d bytes", len(args))})
	return b
}
