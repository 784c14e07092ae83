package osvscan

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan/osvtest"
)

func lockfiles(t *testing.T) []File {
	t.Helper()
	entries, err := os.ReadDir("testdata/lockfiles")
	if err != nil {
		t.Fatal(err)
	}
	var out []File
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/lockfiles", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, File{Path: e.Name(), Content: b})
	}
	return out
}

// Every lockfile format of the four ecosystems gives its resolved version.
func TestExtractEveryFormat(t *testing.T) {
	pkgs, unresolved, notes := Extract(context.Background(), lockfiles(t))
	if len(notes) > 0 {
		t.Errorf("notes: %v", notes)
	}
	got := map[string]Package{}
	for _, p := range pkgs {
		got[p.File+" "+p.Ecosystem+"/"+p.Name+"@"+p.Version] = p
	}
	for _, want := range []string{
		"package-lock.json npm/lodash@4.17.20", "package-lock.json npm/mocha@10.0.0",
		"pnpm-lock.yaml npm/minimist@1.2.5", "yarn.lock npm/axios@0.21.0", "bun.lock npm/ws@8.0.0",
		"requirements.txt PyPI/django@3.2.0", "poetry.lock PyPI/jinja2@2.11.2", "uv.lock PyPI/pyyaml@5.3.1",
		"Pipfile.lock PyPI/urllib3@1.26.4", "pdm.lock PyPI/requests@2.25.0",
		"go.mod Go/golang.org/x/net@0.17.0", "Cargo.lock crates.io/smallvec@1.6.0",
	} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s (got %v)", want, keys(got))
		}
	}
	if !got["package-lock.json npm/mocha@10.0.0"].Dev || got["package-lock.json npm/lodash@4.17.20"].Dev {
		t.Error("dev dependencies not told apart")
	}
	// flask>=1.0 is a range, not version 1.0.
	if len(unresolved) != 1 || unresolved[0].Name != "flask" {
		t.Errorf("unresolved %+v", unresolved)
	}
	if _, ok := got["requirements.txt PyPI/flask@1.0"]; ok {
		t.Error("a lower bound was queried as a version")
	}
}

func keys(m map[string]Package) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	return k
}

func fake(t *testing.T) (*osvtest.FakeOSV, *httptest.Server) {
	f := &osvtest.FakeOSV{
		Advisories: map[string]map[string]any{
			"GHSA-crit":  osvtest.Advisory("GHSA-crit", "npm", "lodash", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "4.17.21"),
			"GHSA-mod":   osvtest.Advisory("GHSA-mod", "npm", "lodash", "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N", "4.17.21"),
			"GHSA-v4":    osvtest.Advisory("GHSA-v4", "PyPI", "django", "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", "3.2.1"),
			"MAL-2026-1": osvtest.Advisory("MAL-2026-1", "crates.io", "smallvec", "", "0"),
		},
		Affects: map[string][]string{
			"npm/lodash@4.17.20":       {"GHSA-crit", "GHSA-mod"},
			"PyPI/django@3.2.0":        {"GHSA-v4"},
			"crates.io/smallvec@1.6.0": {"MAL-2026-1"},
		},
	}
	srv := httptest.NewTLSServer(f)
	t.Cleanup(srv.Close)
	// The helper trusts the system roots; point them at the test server's
	// certificate, the way a private mirror's CA would be installed.
	cert := srv.Certificate()
	p := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", p)
	if _, err := x509.SystemCertPool(); err != nil {
		t.Fatal(err)
	}
	return f, srv
}

func TestScanAgainstFakeOSV(t *testing.T) {
	f, srv := fake(t)
	resp, err := Scan(context.Background(), Request{Files: lockfiles(t), BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Vuln{}
	for _, v := range resp.Vulns {
		by[v.ID] = v
	}
	if v := by["GHSA-crit"]; v.Severity != "CRITICAL" || v.Score != 9.8 || resp.Packages[v.Package].Name != "lodash" || len(v.Fixed) != 1 || v.Fixed[0] != "4.17.21" {
		t.Errorf("critical advisory read as %+v", v)
	}
	// The second lodash advisory came on a second page.
	if v := by["GHSA-mod"]; v.Severity != "MODERATE" || v.Score != 4.8 {
		t.Errorf("moderate advisory read as %+v", v)
	}
	if v := by["GHSA-v4"]; v.Severity != "CRITICAL" || v.Score != 9.3 {
		t.Errorf("CVSS v4 advisory read as %+v", v)
	}
	if v := by["MAL-2026-1"]; !v.Malware || v.Severity != "CRITICAL" {
		t.Errorf("malware advisory read as %+v", v)
	}
	if len(resp.Vulns) != 4 {
		t.Errorf("%d advisories: %+v", len(resp.Vulns), resp.Vulns)
	}
	// Every request is recorded with a digest of its response.
	var batches, details int
	for _, e := range resp.Exchanges {
		if e.SHA256 == "" || e.Status != 200 || !strings.HasPrefix(e.URL, srv.URL) {
			t.Errorf("exchange %+v", e)
		}
		switch {
		case strings.HasSuffix(e.URL, "/v1/querybatch"):
			batches++
		case strings.Contains(e.URL, "/v1/vulns/"):
			details++
		}
	}
	if batches != 2 || details != 4 || len(resp.Exchanges) != len(f.Requests) {
		t.Errorf("%d batches, %d details, %d exchanges for %d requests", batches, details, len(resp.Exchanges), len(f.Requests))
	}
}

func TestScanRefusesPlainHTTPBase(t *testing.T) {
	if _, err := Scan(context.Background(), Request{BaseURL: "http://127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "https") {
		t.Fatalf("err %v", err)
	}
}

func TestScore(t *testing.T) {
	for v, want := range map[string]float64{
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H": 9.8,
		"CVSS:3.0/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N": 5.4,
		"AV:N/AC:L/Au:N/C:P/I:P/A:P":                   7.5,
	} {
		if got, ok := Score(v); !ok || got != want {
			t.Errorf("%s: %v %v, want %v", v, got, ok, want)
		}
	}
	for _, v := range []string{"9.8", "", "CVSS:3.1/AV:X"} {
		if _, ok := Score(v); ok {
			t.Errorf("%q accepted as a vector", v)
		}
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{`{"lockfileVersion":3,"packages":{"node_modules/a":{"version":"1"}}}`, "a==1\n", "[[package]]\nname='x'\nversion='1'\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range []string{"package-lock.json", "requirements.txt", "poetry.lock", "uv.lock", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "go.mod", "bun.lock"} {
			Extract(context.Background(), []File{{Path: name, Content: []byte(s)}})
		}
	})
}
