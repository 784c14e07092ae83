package main

import (
	"encoding/json"
	"encoding/pem"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	depsnoknownvulns "github.com/metahub-ai/attest/checks/deps-no-known-vulns"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan/osvtest"
)

// TestRunNetRecordsOSVRequests runs 'attest run --net' end to end: the real
// attest-deps helper, built here, asks a local fake of the OSV API over
// HTTPS; the critical advisory blocks and every request lands in the
// report with the digest of its response.
func TestRunNetRecordsOSVRequests(t *testing.T) {
	helper := filepath.Join(t.TempDir(), "attest-deps")
	if out, err := exec.Command("go", "build", "-o", helper, "github.com/metahub-ai/attest/cmd/attest-deps").CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	fake := &osvtest.FakeOSV{
		Advisories: map[string]map[string]any{"GHSA-crit": osvtest.Advisory("GHSA-crit", "npm", "lodash", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "4.17.21")},
		Affects:    map[string][]string{"npm/lodash@4.17.20": {"GHSA-crit"}},
	}
	srv := httptest.NewTLSServer(fake)
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", ca)
	t.Setenv(depsnoknownvulns.EnvOSVURL, srv.URL)
	t.Setenv(depsnoknownvulns.EnvHelper, helper)
	fixture := "../../checks/deps-no-known-vulns/testdata/pos/fail-mcp-npm-critical"

	type rep struct {
		Grants  struct{ Net bool }
		Results []struct {
			Check, Status, Summary string
			Evidence               []struct{ Type, URL, SHA256 string }
		}
	}
	find := func(r rep) (status, summary string, urls []string) {
		for _, x := range r.Results {
			if x.Check == "deps-no-known-vulns" {
				for _, e := range x.Evidence {
					if e.Type == "url" && len(e.SHA256) == 64 {
						urls = append(urls, e.URL)
					}
				}
				return x.Status, x.Summary, urls
			}
		}
		t.Fatal("no deps-no-known-vulns result")
		return
	}
	res := attestCLI(t, nil, "run", "--net", "--kind", "mcp", "--json", fixture)
	var r rep
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatalf("exit %d, %v: %s %s", res.code, err, res.stdout, res.stderr)
	}
	status, summary, urls := find(r)
	if res.code != 1 || !r.Grants.Net || status != "fail" || !strings.Contains(summary, "GHSA-crit") {
		t.Fatalf("exit %d, net %v, %s: %s", res.code, r.Grants.Net, status, summary)
	}
	if len(urls) != 2 || !strings.HasSuffix(urls[0], "/v1/querybatch") || !strings.HasSuffix(urls[1], "/v1/vulns/GHSA-crit") || len(fake.Requests) != 2 {
		t.Fatalf("recorded %v for requests %v", urls, fake.Requests)
	}

	// Offline the same artifact is not judged on advisories, and nothing is asked.
	res = attestCLI(t, nil, "run", "--kind", "mcp", "--json", fixture)
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatal(err)
	}
	if status, _, _ := find(r); status != "skip" || len(fake.Requests) != 2 {
		t.Fatalf("offline: %s, %d requests", status, len(fake.Requests))
	}
}
