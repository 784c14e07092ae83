package depsnoknownvulns

import (
	"context"
	"encoding/pem"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan/osvtest"
	"github.com/metahub-ai/attest/resolve"
)

// fakeOSV starts the fake API and points the check at it.
func fakeOSV(t *testing.T) *osvtest.FakeOSV {
	f := &osvtest.FakeOSV{
		Advisories: map[string]map[string]any{
			"GHSA-crit":  osvtest.Advisory("GHSA-crit", "npm", "lodash", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "4.17.21"),
			"GHSA-mod":   osvtest.Advisory("GHSA-mod", "npm", "minimist", "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N", "1.2.6"),
			"MAL-2026-1": osvtest.Advisory("MAL-2026-1", "crates.io", "smallvec", "", "0"),
		},
		Affects: map[string][]string{"npm/lodash@4.17.20": {"GHSA-crit"}, "npm/minimist@1.2.5": {"GHSA-mod"}, "crates.io/smallvec@1.6.0": {"MAL-2026-1"}},
	}
	srv := httptest.NewTLSServer(f)
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", ca)
	t.Setenv(EnvOSVURL, srv.URL)
	return f
}

func runWith(t *testing.T, dir string, g checks.Grants) checks.Result {
	f := checktest.Fixtures(t, filepath.Dir(filepath.Dir(dir)))
	for _, x := range f {
		if x.Dir == dir {
			s := checktest.Load(t, dir, x.Kind)
			cat, err := checks.NewCatalog("test", "0.0.0", []*checks.Check{Check})
			if err != nil {
				t.Fatal(err)
			}
			return checks.Run(context.Background(), s, cat, checks.RunOptions{Grants: g})[0].Result
		}
	}
	t.Fatalf("no fixture %s", dir)
	return checks.Result{}
}

func TestFixturesAgainstFakeOSV(t *testing.T) {
	fake := fakeOSV(t)
	for _, fx := range checktest.Fixtures(t, "testdata") {
		t.Run(fx.Name, func(t *testing.T) {
			r := runWith(t, fx.Dir, checks.Grants{Net: true, Clock: true})
			want := fx.Want
			if !fx.Pos {
				want = checks.Pass
			}
			if r.Status != want {
				t.Fatalf("status %s, want %s: %s %+v", r.Status, want, r.Summary, r.Evidence)
			}
			urls := 0
			for _, e := range r.Evidence {
				if e.Type == checks.EvidenceURL {
					urls++
					if len(e.SHA256) != 64 || !strings.Contains(e.URL, "/v1/") {
						t.Errorf("url evidence %+v", e)
					}
				}
			}
			if urls == 0 || !strings.Contains(r.Detail, "POST "+os.Getenv(EnvOSVURL)+"/v1/querybatch") {
				t.Errorf("requests not recorded: %d url items, detail %q", urls, r.Detail)
			}
		})
	}
	if len(fake.Requests) == 0 {
		t.Fatal("the fake OSV API was never asked")
	}
	// A critical advisory blocks, a moderate one warns at 0.75.
	r := runWith(t, "testdata/pos/warn-mcp-npm-moderate", checks.Grants{Net: true})
	if r.Score == nil || *r.Score != 0.75 || !strings.Contains(r.Summary, "GHSA-mod: MODERATE 4.8") {
		t.Errorf("moderate: %+v", r)
	}
	r = runWith(t, "testdata/pos/fail-mcp-npm-critical", checks.Grants{Net: true})
	if !strings.Contains(r.Summary, "GHSA-crit: CRITICAL 9.8") || !strings.Contains(r.Summary, "fixed in 4.17.21") {
		t.Errorf("critical: %s", r.Summary)
	}
}

func TestOfflineIsSkip(t *testing.T) {
	fake := fakeOSV(t)
	r := runWith(t, "testdata/pos/fail-mcp-npm-critical", checks.DefaultGrants)
	if r.Status != checks.Skip || r.SkipReason != checks.SkipCapability {
		t.Fatalf("offline: %+v", r)
	}
	if len(fake.Requests) != 0 {
		t.Fatalf("an offline run asked OSV %d times", len(fake.Requests))
	}
}

// OSV unreachable is our failure: error, never a pass.
func TestOSVDownIsOurError(t *testing.T) {
	srv := httptest.NewTLSServer(nil)
	url := srv.URL
	srv.Close()
	t.Setenv(EnvOSVURL, url)
	r := runWith(t, "testdata/pos/fail-mcp-npm-critical", checks.Grants{Net: true})
	if r.Status != checks.Error {
		t.Fatalf("status %s: %s", r.Status, r.Summary)
	}
}

// A workspace member is looked up through its root's lockfile, named as
// such in the evidence.
func TestWorkspaceMemberUsesRootLockfile(t *testing.T) {
	fakeOSV(t)
	root := t.TempDir()
	lock, err := os.ReadFile("testdata/pos/fail-mcp-npm-critical/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{
		"package.json":       `{"name": "mono", "private": true, "workspaces": ["src/*"]}`,
		"package-lock.json":  string(lock),
		"src/w/package.json": `{"name": "w", "version": "1.0.0", "bin": {"w": "index.js"}, "dependencies": {"lodash": "^4.17.20"}}`,
		"src/w/index.js":     "console.log(1)\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := resolve.Load(t.Context(), filepath.Join(root, "src/w"), resolve.LoadOptions{Kind: resolve.KindMCP})
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := checks.NewCatalog("test", "0.0.0", []*checks.Check{Check})
	r := checks.Run(context.Background(), s, cat, checks.RunOptions{Grants: checks.Grants{Net: true}})[0].Result
	if r.Status != checks.Fail || !strings.HasPrefix(r.Summary, "../../package-lock.json:") || !strings.Contains(r.Detail, "workspace root") {
		t.Fatalf("%s: %s\n%s", r.Status, r.Summary, r.Detail)
	}
}

func TestExactPin(t *testing.T) {
	for _, c := range []struct {
		eco, spec, want string
		ok              bool
	}{{"npm", "4.17.20", "4.17.20", true}, {"npm", "^4.17.20", "", false}, {"npm", "1.x", "", false},
		{"PyPI", "==2.31.0", "2.31.0", true}, {"PyPI", ">=2", "", false}, {"PyPI", "==2.*", "", false},
		{"crates.io", "=1.6.0", "1.6.0", true}, {"crates.io", "1.6", "", false}} {
		if v, ok := exactPin(c.eco, c.spec); ok != c.ok || ok && v != c.want {
			t.Errorf("%s %q: %q %v", c.eco, c.spec, v, ok)
		}
	}
}

// Lockfiles that resolve nothing are looked up for nothing: no pass,
// since a verifier refuses a pass with no request behind it. An empty
// lockfile is neutral; one whose entries have no version, or that cannot
// be read, warns as nothing could be looked up.
func TestNothingLookedUpIsNoPass(t *testing.T) {
	fake := fakeOSV(t)
	for _, c := range []struct {
		name  string
		files map[string]string
		want  checks.Status
	}{
		{"a lockfile with no package", map[string]string{
			"package.json":      `{"name": "w", "version": "1.0.0", "bin": {"w": "index.js"}}`,
			"package-lock.json": `{"name": "w", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {"": {"name": "w", "version": "1.0.0"}}}`,
		}, checks.Neutral},
		{"a lockfile that cannot be read", map[string]string{
			"package.json":      `{"name": "w", "version": "1.0.0", "bin": {"w": "index.js"}, "dependencies": {"lodash": "^4.17.20"}}`,
			"package-lock.json": `{"name": "w", "lockfileVersion": 3, "packages": [`,
		}, checks.Warn},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.files["index.js"] = "console.log(1)\n"
			for p, body := range c.files {
				if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := checktest.Load(t, dir, resolve.KindMCP)
			cat, _ := checks.NewCatalog("test", "0.0.0", []*checks.Check{Check})
			r := checks.Run(context.Background(), s, cat, checks.RunOptions{Grants: checks.Grants{Net: true}})[0].Result
			if r.Status != c.want {
				t.Fatalf("%s: %s", r.Status, r.Summary)
			}
		})
	}
	if len(fake.Requests) != 0 {
		t.Errorf("asked OSV %d times for nothing", len(fake.Requests))
	}
}
