package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/vocab"
)

// The decoys are the vocabulary's: each is planted under the home, private
// to its owner, with every placeholder replaced by the canary.
func TestPlantDecoys(t *testing.T) {
	home := t.TempDir()
	const canary = "canary-7f3a9c"
	if err := PlantDecoys(home, canary); err != nil {
		t.Fatal(err)
	}
	ds := vocab.Decoys()
	if len(ds) == 0 {
		t.Fatal("no decoys")
	}
	for _, d := range ds {
		p := filepath.Join(home, filepath.FromSlash(d.Path))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s not planted: %v", d.Path, err)
			continue
		}
		if !strings.Contains(string(b), canary) || strings.Contains(string(b), "%s") {
			t.Errorf("%s holds %q", d.Path, b)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", d.Path, fi.Mode())
		}
		if !vocab.PathLabels(p).Has("credential-store") {
			t.Errorf("%s is no credential store to the scan that watches it", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".ssh", "id_rsa")); !strings.HasPrefix(string(b), "-----BEGIN OPENSSH PRIVATE KEY-----\n"+canary+"\n") {
		t.Errorf("the SSH key decoy reads %q", b)
	}
}
