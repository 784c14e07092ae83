package main

import (
	"context"
	"crypto"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/render"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/verify"
)

// Bounds of what the server hands an agent: findings, locations per
// finding, and the length of any one string.
const (
	mcpMaxFindings  = 40
	mcpMaxLocations = 5
	mcpMaxText      = 300
)

// EvaluateIn is the evaluate tool's input.
type EvaluateIn struct {
	Target string `json:"target" jsonschema:"the artifact: a directory under the server's root, or a remote target such as OWNER/REPO//DIR#REF, npm:NAME@VERSION, registry:KIND/NAME"`
	Kind   string `json:"kind,omitempty" jsonschema:"skill, mcp, agent or plugin, when detection cannot tell"`
}

// Finding is one failing or warning check, bounded.
type Finding struct {
	Check     string   `json:"check"`
	Status    string   `json:"status"`
	Blocking  bool     `json:"blocking"`
	Summary   string   `json:"summary"`
	Locations []string `json:"locations,omitempty"`
	Waived    bool     `json:"waived,omitempty"`
}

// EvaluateOut is the evaluate tool's structured result.
type EvaluateOut struct {
	Kind     string             `json:"kind"`
	Name     string             `json:"name"`
	Digest   string             `json:"sha256"`
	Verdict  string             `json:"verdict"`
	Overall  *float64           `json:"overall"`
	Axes     map[string]float64 `json:"axes"`
	Blocking []string           `json:"blocking"`
	Findings []Finding          `json:"findings"`
	More     int                `json:"moreFindings,omitempty"`
}

// VerifyIn is the verify tool's input.
type VerifyIn struct {
	Bundle      string `json:"bundle" jsonschema:"a Sigstore bundle written by attest sign (a path under the server's root)"`
	Artifact    string `json:"artifact,omitempty" jsonschema:"the artifact the bundle is about (a directory under the root), to compare its digest and re-run its checks"`
	Policy      string `json:"policy,omitempty" jsonschema:"a consumer policy file (docs/POLICY.md) under the root: the install gate"`
	Key         string `json:"key,omitempty" jsonschema:"the publisher's public key file under the root"`
	TrustedRoot string `json:"trustedRoot,omitempty" jsonschema:"a Sigstore trusted_root.json under the root"`
}

// VerifyOut is the verify tool's structured result.
type VerifyOut struct {
	Passed  bool            `json:"passed"`
	Answers []verify.Answer `json:"answers"`
}

func clip(s string) string {
	s = render.Terminal(s)
	if r := []rune(s); len(r) > mcpMaxText {
		return string(r[:mcpMaxText-1]) + "…"
	}
	return s
}

// mcpServe is 'attest mcp serve [--root DIR]': attest as an MCP server
// over stdio, so an agent can evaluate a target or gate an install on a
// signed report itself. Local paths must be under the root (default: the
// working directory); what goes back is bounded and carries summaries and
// locations, never file contents.
func mcpServe(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser) error {
	fs := flag.NewFlagSet("mcp serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rootFlag := fs.String("root", ".", "local targets and files must be under this directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := filepath.Abs(*rootFlag)
	if err != nil {
		return err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Errorf("--root %s: not a directory", *rootFlag)
	}
	within := func(p string) (string, error) {
		abs, err := filepath.Abs(filepath.Join(root, p))
		if filepath.IsAbs(p) {
			abs, err = filepath.Abs(p)
		}
		if err != nil {
			return "", err
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", fmt.Errorf("%s is outside the server's root %s", p, root)
		}
		return abs, nil
	}
	version := Version
	s := mcp.NewServer(&mcp.Implementation{Name: "attest", Version: version}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "evaluate",
		Description: "Evaluate an AI artifact (skill, MCP server, agent or plugin) with attest's static checks, offline: the verdict, the score per axis (integrity, safety, care), and the failing and warning checks with where they are. Nothing of the artifact is executed.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in EvaluateIn) (*mcp.CallToolResult, EvaluateOut, error) {
		target := in.Target
		if target == "" {
			return nil, EvaluateOut{}, errors.New("target is required")
		}
		// A directory under the root wins, as on the command line; anything
		// else must be a remote target.
		if abs, err := within(target); err == nil && isDir(abs) {
			target = abs
		} else if t, perr := resolve.ParseWith(target, func(string) bool { return false }); perr != nil {
			return nil, EvaluateOut{}, perr
		} else if t.Type == resolve.TypeDir {
			if err == nil {
				err = fmt.Errorf("%s is not a directory under the server's root", in.Target)
			}
			return nil, EvaluateOut{}, err
		}
		opts := attest.Options{ToolVersion: version}
		if in.Kind != "" {
			k, err := resolve.ParseKind(in.Kind)
			if err != nil {
				return nil, EvaluateOut{}, err
			}
			opts.Kind = k
		}
		r, err := attest.Evaluate(ctx, target, opts)
		if err != nil {
			return nil, EvaluateOut{}, err
		}
		out := EvaluateOut{Kind: string(r.Subject.Kind), Name: clip(r.Subject.Name), Digest: r.Subject.Digest.SHA256,
			Verdict: r.Score.Verdict, Overall: r.Score.Overall, Axes: map[string]float64{}, Blocking: r.Score.Blocking, Findings: []Finding{}}
		for ax, a := range r.Score.Axes {
			if a.Score != nil {
				out.Axes[string(ax)] = *a.Score
			}
		}
		for _, res := range r.Results {
			if res.Status != checks.Fail && res.Status != checks.Warn {
				continue
			}
			if len(out.Findings) == mcpMaxFindings {
				out.More++
				continue
			}
			f := Finding{Check: res.Check, Status: string(res.Status), Blocking: res.Blocking, Summary: clip(res.Summary), Waived: res.Waiver != nil}
			for _, e := range res.Evidence {
				if e.Type == checks.EvidenceFile && len(f.Locations) < mcpMaxLocations {
					loc := e.Path
					if e.Line > 0 {
						loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
					}
					f.Locations = append(f.Locations, clip(loc))
				}
			}
			out.Findings = append(out.Findings, f)
		}
		return nil, out, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "verify",
		Description: "Verify a signed attest report (a Sigstore bundle) the way a stranger would, optionally against the artifact and a consumer policy: each answer ok, warn or fail. passed is false when any answer fails; use it to gate an install.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in VerifyIn) (*mcp.CallToolResult, VerifyOut, error) {
		path := func(p string) (string, error) {
			if p == "" {
				return "", nil
			}
			return within(p)
		}
		b, err := path(in.Bundle)
		if err != nil || b == "" {
			return nil, VerifyOut{}, fmt.Errorf("bundle: %v", err)
		}
		data, err := resolve.ReadFileMax(b, verify.MaxInput)
		if err != nil {
			return nil, VerifyOut{}, err
		}
		opts := verify.Options{}
		if opts.Artifact, err = path(in.Artifact); err != nil {
			return nil, VerifyOut{}, err
		}
		if p, err := path(in.Key); err != nil {
			return nil, VerifyOut{}, err
		} else if p != "" {
			k, err := keys.LoadPublic(p)
			if err != nil {
				return nil, VerifyOut{}, err
			}
			opts.Keys = []crypto.PublicKey{k}
		}
		if p, err := path(in.TrustedRoot); err != nil {
			return nil, VerifyOut{}, err
		} else if p != "" {
			if opts.TrustedRoot, err = resolve.ReadFileMax(p, verify.MaxTrustedRoot); err != nil {
				return nil, VerifyOut{}, err
			}
		}
		if p, err := path(in.Policy); err != nil {
			return nil, VerifyOut{}, err
		} else if p != "" {
			if err := opts.ApplyPolicy(p); err != nil {
				return nil, VerifyOut{}, err
			}
		}
		r := verify.Verify(ctx, data, opts)
		out := VerifyOut{Passed: !r.Failed}
		for _, a := range r.Answers {
			a.Reason = clip(a.Reason)
			out.Answers = append(out.Answers, a)
		}
		return nil, out, nil
	})
	out := &lockedWriter{w: stdout}
	return s.Run(ctx, &mcp.IOTransport{Reader: newMessageReader(stdin, out), Writer: out})
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
