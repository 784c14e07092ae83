package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/attest/keys"
)

// TestUnsignedWhereSignedExpected: no key holder is needed to write a
// report. Given where a bundle is expected with a signer named (--key, an
// identity, a policy's signers), a plain report, the publisher's honest
// one or a forged one, fails (exit 1) in every command that takes a
// signer: a missing signature is never a warning then.
func TestUnsignedWhereSignedExpected(t *testing.T) {
	dir := t.TempDir()
	k, _ := keys.Generate(keys.Ed25519)
	if _, err := keys.Write(filepath.Join(dir, "publisher"), k); err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "publisher.pub.pem")
	honest, err := os.ReadFile("../../testdata/report/skill-pass.json")
	if err != nil {
		t.Fatal(err)
	}
	// A forgery: the failing report relabelled as passing, scores and
	// all, and signed by no one.
	var m map[string]any
	b, _ := os.ReadFile("../../testdata/report/skill-fail.json")
	json.Unmarshal(b, &m)
	for _, r := range m["results"].([]any) {
		if r := r.(map[string]any); r["status"] == "fail" {
			r["status"], r["evidence"] = "pass", []any{}
		}
	}
	pass, _ := json.Marshal(map[string]any{"formula": "attest-default@1", "overall": 100, "verdict": "pass", "blocking": []any{},
		"axes": m["score"].(map[string]any)["axes"]})
	json.Unmarshal(pass, &m)
	forged, _ := json.Marshal(m)
	policyFile := filepath.Join(dir, "policy.json")
	os.WriteFile(policyFile, []byte(`{"trustedSigners": ["publisher.pub.pem"]}`), 0o644)
	for name, report := range map[string][]byte{"honest": honest, "forged": forged} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, report, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"verify", "--key", pub, path},
			{"verify", "--key", pub, "--artifact", "../../testdata/samples/pdf-forms", path},
			{"verify", "--policy", policyFile, path},
			{"render", "--key", pub, path},
			{"render", "--format", "json", "--key", pub, path},
		} {
			r := attestCLI(t, nil, args...)
			if r.code != exitFail || !strings.Contains(r.stdout+r.stderr, "carries no signature") {
				t.Errorf("%s: attest %s: exit %d\n%s%s", name, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			if args[0] == "render" && r.stdout != "" {
				t.Errorf("%s: attest %s rendered the unsigned report", name, strings.Join(args, " "))
			}
		}
	}
	// Without a signer named, a plain report still renders.
	if r := attestCLI(t, nil, "render", filepath.Join(dir, "honest.json")); r.code != exitOK {
		t.Errorf("render without a signer: exit %d %s", r.code, r.stderr)
	}
}
