package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
)

// TestMCPServe: the go-sdk client, over stdio to the real binary, lists
// the tools, evaluates a sample (bounded findings, no file content),
// refuses a path outside the root, and gates on a signed report.
func TestMCPServe(t *testing.T) {
	root := t.TempDir()
	samples, _ := filepath.Abs("../../testdata/samples")
	for _, s := range []string{"pdf-forms", "unsafe-skill"} {
		if out, err := exec.Command("cp", "-R", filepath.Join(samples, s), root).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(attesttest.Binary(t), "mcp", "serve", "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "evaluate,verify" {
		t.Fatalf("tools: %v", names)
	}
	call := func(name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		return res, out
	}
	res, out := call("evaluate", map[string]any{"target": "unsafe-skill"})
	if res.IsError || out["verdict"] != "fail" || out["sha256"] == "" {
		t.Fatalf("evaluate: %+v %v", res, out)
	}
	b, _ := json.Marshal(out)
	if strings.Contains(string(b), "ghp_") || strings.Contains(string(b), "BEGIN OPENSSH") || len(b) > 64<<10 {
		t.Errorf("the answer carries a secret or is unbounded: %d bytes", len(b))
	}
	findings, _ := out["findings"].([]any)
	if len(findings) == 0 {
		t.Error("no findings for a failing artifact")
	}
	if res, _ := call("evaluate", map[string]any{"target": "/etc"}); !res.IsError {
		t.Error("a directory outside the root was evaluated")
	}

	// The install gate: a signed report verified against its artifact.
	k, _ := keys.Generate(keys.Ed25519)
	keys.Write(filepath.Join(root, "pub"), k)
	rep, _ := os.ReadFile("../../testdata/report/skill-pass.json")
	bundle, err := sign.Bundle(ctx, rep, k)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "r.sigstore.json"), bundle, 0o644)
	res, out = call("verify", map[string]any{"bundle": "r.sigstore.json", "key": "pub.pub.pem", "artifact": "pdf-forms"})
	if res.IsError || out["passed"] != true {
		t.Errorf("verify: %+v %v", res, out)
	}
	res, out = call("verify", map[string]any{"bundle": "r.sigstore.json", "key": "pub.pub.pem", "artifact": "unsafe-skill"})
	if res.IsError || out["passed"] != false {
		t.Errorf("verify against another artifact: %v", out)
	}
}
