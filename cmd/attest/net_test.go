package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign/sigstoretest"
	depsnoknownvulns "github.com/metahub-ai/attest/checks/deps-no-known-vulns"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan/osvtest"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
	"github.com/metahub-ai/attest/resolve/remote/gittest"
	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
	rnote "github.com/sigstore/rekor-tiles/v2/pkg/note"
	"github.com/sigstore/sigstore/pkg/signature"
	logformat "github.com/transparency-dev/formats/log"
	"golang.org/x/mod/sumdb/note"
)

// TestRunNetRecordsOSVRequests runs 'attest run --net' end to end: the
// check asks a local fake of the OSV API over HTTPS; the critical advisory
// blocks and every request lands in the report with the digest of its
// response.
func TestRunNetRecordsOSVRequests(t *testing.T) {
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

// TestRunGitTarget evaluates a directory of a repository served over
// git's smart HTTP on loopback: the report pins the commit and the path,
// and hostile or missing targets end in exit 2 with a message, nothing
// evaluated.
func TestRunGitTarget(t *testing.T) {
	g := gittest.NewServer(t)
	var first string
	g.Repo(t, "skills", func(w string, commit func(string) string) {
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms from a table of values. Use when the user asks to fill a form.\n---\n\nRead the form's fields, map each value to its field, and write a filled copy beside the original.\n", 0o644)
		first = commit("one")
		gittest.Git(t, w, "tag", "v1")
		if err := os.Symlink("/etc", filepath.Join(w, "skills", "evil")); err != nil {
			t.Fatal(err)
		}
		commit("two")
	})
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	res := attestCLI(t, nil, "run", "--json", g.URL+"/skills.git//skills/pdf#v1")
	var r struct {
		Subject struct {
			Name   string
			Source struct{ Type, URI, Path, Ref, Commit string }
			Digest struct{ GitCommit, GitTree string }
		}
		Results []struct {
			Check, Status string
			Evidence      []struct {
				Name  string
				Value *float64
			}
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil || res.code != 0 {
		t.Fatalf("exit %d: %v\n%s\n%s", res.code, err, res.stdout, res.stderr)
	}
	if err := validateReport([]byte(res.stdout)); err != nil {
		t.Errorf("schema: %v", err)
	}
	if r.Subject.Digest.GitCommit != first || len(r.Subject.Digest.GitTree) != 40 {
		t.Errorf("digest %+v", r.Subject.Digest)
	}
	// The commit's time reaches recently-maintained.
	seen := false
	for _, res := range r.Results {
		if res.Check == "recently-maintained" {
			seen = true
			if res.Status != "pass" || len(res.Evidence) != 1 || res.Evidence[0].Name != "days_since_last_commit" || res.Evidence[0].Value == nil {
				t.Errorf("recently-maintained on a git target: %+v", res)
			}
		}
	}
	if !seen {
		t.Error("no recently-maintained result")
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the checkout outlived the run: %v", left)
	}
	src := r.Subject.Source
	if src.Type != "git" || src.Commit != first || len(src.Commit) != 40 || src.Path != "skills/pdf" || src.Ref != "v1" || r.Subject.Name != "pdf" {
		t.Errorf("source %+v, name %s", src, r.Subject.Name)
	}
	for target, want := range map[string]string{
		g.URL + "/skills.git//skills/evil": "leads out of the repository",
		g.URL + "/skills.git#v9":           "no branch, tag or commit named",
		g.URL + "/nothing.git":             "no such repository",
		"owner/repo/skills/pdf":            "owner/repo//skills/pdf",
		"http://example.com/x.git":         "loopback",
	} {
		res := attestCLI(t, nil, "run", target)
		if res.code != 2 || !strings.Contains(res.stderr, want) || res.stdout != "" {
			t.Errorf("%s: exit %d, stderr %q, want exit 2 mentioning %q", target, res.code, res.stderr, want)
		}
	}
}

// TestRunRegistryTarget: a registry entry resolves to the commit it pins,
// and the report names the registry, the entry and the commit.
func TestRunRegistryTarget(t *testing.T) {
	g := gittest.NewServer(t)
	var c1 string
	g.Repo(t, "skills", func(w string, commit func(string) string) {
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms from a table of values. Use when the user asks to fill a form.\n---\n\nRead the form's fields, map each value to its field, and write a filled copy beside the original.\n", 0o644)
		c1 = commit("one")
	})
	cat := t.TempDir()
	gittest.Put(t, cat, "v1/skill/pdf.json", `{"kind": "skill", "name": "pdf", "latest": "1.0.0", "versions": {"1.0.0": {"git": {"url": "`+g.URL+`/skills.git", "commit": "`+c1+`", "path": "skills/pdf"}}}}`, 0o644)
	reg := exec.Command(attesttest.Binary(t), "registry", "serve", "--addr", "127.0.0.1:0", cat)
	stderr, err := reg.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Process.Kill(); reg.Wait() })
	line := make([]byte, 512)
	n, _ := stderr.Read(line)
	_, after, ok := strings.Cut(string(line[:n]), "ATTEST_REGISTRY=")
	if !ok {
		t.Fatalf("registry-serve said %q", line[:n])
	}
	t.Setenv("ATTEST_REGISTRY", strings.TrimRight(strings.Fields(after)[0], ");"))

	res := attestCLI(t, nil, "run", "--json", "registry:skill/pdf")
	var r struct {
		Subject struct {
			Kind   string
			Source struct {
				Type, Commit string
				Registry     struct{ URL, Entry string }
			}
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil || res.code != 0 {
		t.Fatalf("exit %d: %v\n%s", res.code, err, res.stderr)
	}
	if s := r.Subject.Source; s.Type != "registry" || s.Commit != c1 || s.Registry.Entry != "skill/pdf@1.0.0" || !strings.HasPrefix(s.Registry.URL, "http://127.0.0.1:") || r.Subject.Kind != "skill" {
		t.Errorf("subject %+v", r.Subject)
	}
	if res := attestCLI(t, nil, "run", "--kind", "mcp", "registry:skill/pdf"); res.code != 2 || !strings.Contains(res.stderr, "the registry lists it as skill") {
		t.Errorf("--kind against the registry: exit %d %q", res.code, res.stderr)
	}
}

// TestRunNPMTarget: an npm target records the registry's integrity string
// verbatim, and a tarball that does not match it is never evaluated.
func TestRunNPMTarget(t *testing.T) {
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(gz)
	for name, body := range map[string]string{
		"package/SKILL.md": "---\nname: weather\ndescription: Reports the weather for a city. Use when the user asks about the weather.\n---\n\nAsk for the city, look up today's forecast and answer in one sentence with the temperature.\n",
	} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	sum := sha512.Sum512(tgz.Bytes())
	integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/weather":
			fmt.Fprintf(w, `{"dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": {"dist": {"tarball": "%s/t.tgz", "integrity": "%s"}}, "1.0.1": {"dist": {"tarball": "%s/t.tgz", "integrity": "sha512-AAAA"}}}}`, srv.URL, integrity, srv.URL)
		case "/t.tgz":
			w.Write(tgz.Bytes())
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv("ATTEST_NPM_REGISTRY", srv.URL)
	res := attestCLI(t, nil, "run", "--json", "npm:weather")
	var r struct {
		Subject struct {
			Source struct{ Type, URI, Integrity string }
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil || res.code != 0 {
		t.Fatalf("exit %d: %v\n%s", res.code, err, res.stderr)
	}
	if s := r.Subject.Source; s.Type != "npm" || s.Integrity != integrity || s.URI != "npm:weather@1.0.0" {
		t.Errorf("source %+v", s)
	}
	if res := attestCLI(t, nil, "run", "npm:weather@1.0.1"); res.code != 2 || !strings.Contains(res.stderr, "integrity mismatch") || res.stdout != "" {
		t.Errorf("mismatch: exit %d %q", res.code, res.stderr)
	}
}

// TestKeygenSignRoundTrip: keygen, run --json, sign; the bundle is a
// Sigstore bundle whose statement names the artifact and carries the
// report (verification by sigstore-go itself is in attest/sign's tests).
func TestKeygenSignRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if r := attestCLI(t, nil, "keygen", "--out", filepath.Join(dir, "k")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	rep := filepath.Join(dir, "report.json")
	if r := attestCLI(t, nil, "run", "--json", "-o", rep, samples+"/pdf-forms"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := attestCLI(t, nil, "sign", "--key", filepath.Join(dir, "k.pem"), rep)
	if r.code != 0 || !strings.Contains(r.stdout, "report.sigstore.json") {
		t.Fatalf("sign: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.sigstore.json"))
	if err != nil {
		t.Fatal(err)
	}
	var bundle struct {
		MediaType    string
		DsseEnvelope struct{ Payload, PayloadType string }
	}
	if err := json.Unmarshal(b, &bundle); err != nil || bundle.MediaType != "application/vnd.dev.sigstore.bundle.v0.3+json" || bundle.DsseEnvelope.PayloadType != "application/vnd.in-toto+json" {
		t.Fatalf("bundle %+v %v", bundle, err)
	}
	payload, _ := base64.StdEncoding.DecodeString(bundle.DsseEnvelope.Payload)
	if !strings.Contains(string(payload), `"name":"skill:pdf-forms"`) || !strings.Contains(string(payload), `"predicateType":"https://github.com/metahub-ai/attest/report/v1"`) {
		t.Errorf("statement %.300s", payload)
	}
	if r := attestCLI(t, nil, "sign", "--key", filepath.Join(dir, "k.pem"), rep); r.code != 2 || !strings.Contains(r.stderr, "never overwrites") {
		t.Errorf("second sign: exit %d %q", r.code, r.stderr)
	}
	if r := attestCLI(t, nil, "sign", "--key", filepath.Join(dir, "k.pub.pem"), rep); r.code != 2 {
		t.Errorf("signing with a public key: exit %d", r.code)
	}
}

// TestVerifyCommand: a signed report verifies with its key and artifact
// (exit 0), fails with another artifact (exit 1), and an unreadable input
// is exit 2.
func TestVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	attestCLI(t, nil, "keygen", "--out", filepath.Join(dir, "k"))
	rep := filepath.Join(dir, "report.json")
	attestCLI(t, nil, "run", "--json", "-o", rep, samples+"/pdf-forms")
	attestCLI(t, nil, "sign", "--key", filepath.Join(dir, "k.pem"), rep)
	bundle := filepath.Join(dir, "report.sigstore.json")
	r := attestCLI(t, nil, "verify", "--key", filepath.Join(dir, "k.pub.pem"), "--artifact", samples+"/pdf-forms", bundle)
	if r.code != 0 || !strings.Contains(r.stdout, "ok    signature") || !strings.Contains(r.stdout, "ok    score") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = attestCLI(t, nil, "verify", "--json", "--key", filepath.Join(dir, "k.pub.pem"), "--artifact", samples+"/weather-go", bundle)
	if r.code != 1 || !strings.Contains(r.stdout, `"name": "subject digest"`) {
		t.Errorf("another artifact: exit %d %s", r.code, r.stdout)
	}
	if r := attestCLI(t, nil, "verify", filepath.Join(dir, "absent.json")); r.code != 2 {
		t.Errorf("missing input: exit %d", r.code)
	}
}

// TestRunSign: run --sign writes the report and its bundle in one go, and
// the bundle verifies against the artifact.
func TestRunSign(t *testing.T) {
	dir := t.TempDir()
	attestCLI(t, nil, "keygen", "--algorithm", "ecdsa-p256", "--out", filepath.Join(dir, "k"))
	rep := filepath.Join(dir, "r.json")
	r := attestCLI(t, nil, "run", "--json", "-o", rep, "--sign", "--key", filepath.Join(dir, "k.pem"), samples+"/weather-go")
	if r.code != 0 || !strings.Contains(r.stderr, "r.sigstore.json") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--require-signature", "--key", filepath.Join(dir, "k.pub.pem"), "--artifact", samples+"/weather-go", filepath.Join(dir, "r.sigstore.json")); r.code != 0 {
		t.Errorf("verify: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "run", "--sign", samples+"/weather-go"); r.code != 2 || !strings.Contains(r.stderr, "--sign needs --key") {
		t.Errorf("--sign alone: exit %d %q", r.code, r.stderr)
	}
}

func TestVerifyPolicyGate(t *testing.T) {
	dir := t.TempDir()
	attestCLI(t, nil, "keygen", "--out", filepath.Join(dir, "k"))
	rep := filepath.Join(dir, "r.json")
	attestCLI(t, nil, "run", "--json", "-o", rep, "--sign", "--key", filepath.Join(dir, "k.pem"), samples+"/pdf-forms")
	pass := filepath.Join(dir, "pass.json")
	os.WriteFile(pass, []byte(`{"trustedSigners": ["k.pub.pem"], "minOverall": 50, "mustPass": ["no-hardcoded-secrets"]}`), 0o644)
	strict := filepath.Join(dir, "strict.json")
	os.WriteFile(strict, []byte(`{"trustedSigners": ["k.pub.pem"], "requireLog": true}`), 0o644)
	bundle := filepath.Join(dir, "r.sigstore.json")
	if r := attestCLI(t, nil, "verify", "--policy", pass, "--artifact", samples+"/pdf-forms", bundle); r.code != 0 || !strings.Contains(r.stdout, "ok    policy") {
		t.Errorf("policy met: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--policy", strict, bundle); r.code != 1 || !strings.Contains(r.stdout, "fail  policy") {
		t.Errorf("policy not met: exit %d\n%s", r.code, r.stdout)
	}
	os.WriteFile(strict, []byte(`{"minOveral": 50}`), 0o644)
	if r := attestCLI(t, nil, "verify", "--policy", strict, bundle); r.code != 2 || !strings.Contains(r.stderr, "unknown field") {
		t.Errorf("misspelt policy: exit %d %q", r.code, r.stderr)
	}
}

// TestKeylessCommands: sign --keyless against a local certificate
// authority and timestamp authority (the token from SIGSTORE_ID_TOKEN),
// then verify against their trusted root: the expected identity passes,
// another fails, none at all fails too unless --insecure-ignore-signer.
func TestKeylessCommands(t *testing.T) {
	s := sigstoretest.Start(t)
	dir := t.TempDir()
	sc, tr := filepath.Join(dir, "signing_config.json"), filepath.Join(dir, "trusted_root.json")
	os.WriteFile(sc, s.SigningConfig(t), 0o644)
	os.WriteFile(tr, s.TrustedRoot(t), 0o644)
	rep := filepath.Join(dir, "r.json")
	attestCLI(t, nil, "run", "--json", "-o", rep, samples+"/pdf-forms")

	t.Setenv("SIGSTORE_ID_TOKEN", "")
	t.Setenv("ACTIONS_ID_TOKEN_REQUEST_URL", "")
	if r := attestCLI(t, nil, "sign", "--keyless", "--signing-config", sc, rep); r.code != 2 || !strings.Contains(r.stderr, "SIGSTORE_ID_TOKEN") {
		t.Errorf("no token: exit %d %q", r.code, r.stderr)
	}
	t.Setenv("SIGSTORE_ID_TOKEN", s.Token(t, "publisher@example.com", sigstoretest.Issuer))
	if r := attestCLI(t, nil, "sign", "--keyless", "--signing-config", sc, rep); r.code != 0 || !strings.Contains(r.stdout, "signed keyless") {
		t.Fatalf("sign --keyless: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	bundle := filepath.Join(dir, "r.sigstore.json")
	r := attestCLI(t, nil, "verify", "--trusted-root", tr, "--identity", "publisher@example.com", "--issuer", sigstoretest.Issuer, "--artifact", samples+"/pdf-forms", bundle)
	if r.code != 0 || !strings.Contains(r.stdout, "ok    signature        keyless, signed by publisher@example.com") || !strings.Contains(r.stdout, "ok    validity") {
		t.Errorf("expected identity: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--trusted-root", tr, "--identity", "other@example.com", "--issuer", sigstoretest.Issuer, bundle); r.code != 1 || !strings.Contains(r.stdout, "not by a trusted identity") {
		t.Errorf("another identity: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--trusted-root", tr, bundle); r.code != 1 || !strings.Contains(r.stdout, "fail  signature        no trusted signer given") {
		t.Errorf("no identity: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--insecure-ignore-signer", "--trusted-root", tr, bundle); r.code != 0 || !strings.Contains(r.stdout, "warn  signature") {
		t.Errorf("no identity, --insecure-ignore-signer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--identity", "publisher@example.com", bundle); r.code != 2 || !strings.Contains(r.stderr, "issuer") {
		t.Errorf("identity without issuer: exit %d %q", r.code, r.stderr)
	}
	pol := filepath.Join(dir, "policy.json")
	os.WriteFile(pol, []byte(`{"trustedIdentities": [{"subject": "publisher@example.com", "issuer": "`+sigstoretest.Issuer+`"}], "trustedRoot": "trusted_root.json"}`), 0o644)
	if r := attestCLI(t, nil, "verify", "--policy", pol, bundle); r.code != 0 || !strings.Contains(r.stdout, "ok    policy") {
		t.Errorf("policy with a trusted identity: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestVerifyKeySigned: a key-signed bundle verifies with its key; ed25519
// is refused for a log before anything is sent; a verify with no signer
// exits 1 saying so in one line, unless --insecure-ignore-signer; a
// trusted root that is not one is bad input (exit 2).
func TestVerifyKeySigned(t *testing.T) {
	dir := t.TempDir()
	attestCLI(t, nil, "keygen", "--out", filepath.Join(dir, "k"))
	rep := filepath.Join(dir, "r.json")
	attestCLI(t, nil, "run", "--json", "-o", rep, "--sign", "--key", filepath.Join(dir, "k.pem"), samples+"/pdf-forms")
	if r := attestCLI(t, nil, "sign", "--key", filepath.Join(dir, "k.pem"), "--log", "http://127.0.0.1:1", "--out", filepath.Join(dir, "logged.json"), rep); r.code != 2 || !strings.Contains(r.stderr, "ecdsa-p256") {
		t.Errorf("ed25519 with a log: exit %d %q", r.code, r.stderr)
	}
	bundle := filepath.Join(dir, "r.sigstore.json")
	if r := attestCLI(t, nil, "verify", "--key", filepath.Join(dir, "k.pub.pem"), "--artifact", samples+"/pdf-forms", bundle); r.code != 0 || !strings.Contains(r.stdout, "ok    signature") {
		t.Errorf("verify: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := attestCLI(t, nil, "verify", "--artifact", samples+"/pdf-forms", bundle)
	if r.code != 1 || strings.Count(r.stdout, "no trusted signer given") != 1 || !strings.Contains(r.stdout, "--insecure-ignore-signer") {
		t.Errorf("no signer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--insecure-ignore-signer", "--artifact", samples+"/pdf-forms", bundle); r.code != 0 || !strings.Contains(r.stdout, "warn  signature") {
		t.Errorf("--insecure-ignore-signer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "verify", "--key", filepath.Join(dir, "k.pub.pem"), "--trusted-root", rep, bundle); r.code != 2 || !strings.Contains(r.stderr, "trusted_root.json") {
		t.Errorf("a report as the trusted root: exit %d %q", r.code, r.stderr)
	}
}

// TestLogCommands: a log served by attest (the companion, a real
// process), its trusted root, a report signed with --log, verified offline
// against the root; the monitor proves the log still extends the
// checkpoint in the bundle, and reports a split view when shown a
// checkpoint of another tree signed with the same key.
func TestLogCommands(t *testing.T) {
	helper := attesttest.Binary(t)
	dir := t.TempDir()
	logDir := filepath.Join(dir, "log")
	srv := exec.Command(helper, "log", "serve", "--dir", logDir, "--addr", "127.0.0.1:0")
	out, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	line, _ := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+) `).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("log serve: %q", line)
	}
	logURL := m[1]
	r := attestCLI(t, nil, "log", "trusted-root", "--dir", logDir)
	if r.code != 0 || !strings.Contains(r.stdout, logURL) {
		t.Fatalf("trusted-root: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	tr := filepath.Join(dir, "trusted_root.json")
	os.WriteFile(tr, []byte(r.stdout), 0o644)

	attestCLI(t, nil, "keygen", "--algorithm", "ecdsa-p256", "--out", filepath.Join(dir, "k"))
	rep := filepath.Join(dir, "r.json")
	if r := attestCLI(t, nil, "run", "--json", "-o", rep, "--sign", "--key", filepath.Join(dir, "k.pem"), "--log", logURL, samples+"/pdf-forms"); r.code != 0 || !strings.Contains(r.stderr, "logged at index 0") {
		t.Fatalf("run --sign --log: exit %d %s", r.code, r.stderr)
	}
	bundle := filepath.Join(dir, "r.sigstore.json")
	r = attestCLI(t, nil, "verify", "--key", filepath.Join(dir, "k.pub.pem"), "--trusted-root", tr, "--artifact", samples+"/pdf-forms", bundle)
	if r.code != 0 || !strings.Contains(r.stdout, "ok    transparency log included") {
		t.Errorf("verify: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	pol := filepath.Join(dir, "policy.json")
	os.WriteFile(pol, []byte(`{"trustedSigners": ["k.pub.pem"], "requireLog": true, "trustedRoot": "trusted_root.json"}`), 0o644)
	if r := attestCLI(t, nil, "verify", "--policy", pol, bundle); r.code != 0 || !strings.Contains(r.stdout, "ok    policy") {
		t.Errorf("requireLog met: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// More entries, then the monitor from the bundle's checkpoint.
	attestCLI(t, nil, "sign", "--key", filepath.Join(dir, "k.pem"), "--log", logURL, "--out", filepath.Join(dir, "second.json"), rep)
	if r := attestCLI(t, nil, "log", "verify", "--url", logURL, "--since", bundle, "--trusted-root", tr); r.code != 0 || !strings.Contains(r.stdout, "tree of 2 entries") || !strings.Contains(r.stdout, "extends the one of 1") {
		t.Errorf("log verify: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A checkpoint of another tree, signed with the log's own key.
	key, err := keys.LoadPrivate(filepath.Join(logDir, "log-key.pem"))
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(dir, "forged.checkpoint")
	os.WriteFile(forged, signedCheckpoint(t, key, "127.0.0.1", 2, make([]byte, 32)), 0o644)
	if r := attestCLI(t, nil, "log", "verify", "--url", logURL, "--since", forged, "--trusted-root", tr); r.code != 1 || !strings.Contains(r.stdout, "split view") {
		t.Errorf("split view: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	other, _ := keys.Generate(keys.ECDSAP256)
	os.WriteFile(forged, signedCheckpoint(t, other, "127.0.0.1", 2, make([]byte, 32)), 0o644)
	if r := attestCLI(t, nil, "log", "verify", "--url", logURL, "--since", forged, "--trusted-root", tr); r.code != 2 || !strings.Contains(r.stderr, "signature does not verify") {
		t.Errorf("a checkpoint by another key: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// signedCheckpoint signs a checkpoint note as a log with key would.
func signedCheckpoint(t *testing.T, key crypto.Signer, origin string, size uint64, root []byte) []byte {
	t.Helper()
	sv, err := signature.LoadSigner(key, crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := rnote.NewNoteSigner(context.Background(), origin, sv)
	if err != nil {
		t.Fatal(err)
	}
	cp := logformat.Checkpoint{Origin: origin, Size: size, Hash: root}
	b, err := note.Sign(&note.Note{Text: string(cp.Marshal())}, ns)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFetchedConfigIgnored: a fetched artifact's own attest.json never
// applies to a run on it (its waiver would have waived its own finding);
// a note says it was ignored.
func TestFetchedConfigIgnored(t *testing.T) {
	g := gittest.NewServer(t)
	g.Repo(t, "skill", func(w string, commit func(string) string) {
		gittest.Put(t, w, "SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms from a table of values. Use when the user asks to fill a form.\n---\n\nRead the form's fields, map each value to its field, and write a filled copy beside the original.\n", 0o644)
		gittest.Put(t, w, ".env.gen", "API_TOKEN=abc\n", 0o644)
		gittest.Put(t, w, "attest.json", `{"waivers": [{"check": "no-sensitive-files", "reason": "nothing to see here, trust me"}], "disable": ["no-hardcoded-secrets"]}`, 0o644)
		commit("one")
	})
	t.Chdir(t.TempDir())
	res := attestCLI(t, nil, "run", "--json", g.URL+"/skill.git")
	var r configReport
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatalf("exit %d: %v\n%s", res.code, err, res.stderr)
	}
	if st, waived := r.result("no-sensitive-files"); st != "fail" || waived {
		t.Errorf("the artifact waived its own finding: %s %v", st, waived)
	}
	if st, _ := r.result("no-hardcoded-secrets"); st == "skip" {
		t.Error("the artifact disabled a check")
	}
	if !strings.Contains(res.stderr, "the fetched artifact's own attest.json was ignored") || r.Policy.Source != nil {
		t.Errorf("note: %q, source %v", res.stderr, r.Policy.Source)
	}
}

// TestRenderCommand: a saved report re-rendered in every format without
// evaluating; a bundle is verified first and its page shows the answers;
// a bundle that fails verification still renders, and exits 1.
func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "r.json")
	attestCLI(t, nil, "keygen", "--out", filepath.Join(dir, "k"))
	attestCLI(t, nil, "run", "--json", "-o", rep, "--sign", "--key", filepath.Join(dir, "k.pem"), samples+"/pdf-forms")
	for format, want := range map[string]string{"text": "OVERALL", "json": `"schemaVersion": "1"`, "sarif": `"version": "2.1.0"`, "markdown": "| axis | score | measured |", "html": `id="overall-score"`} {
		if r := attestCLI(t, nil, "render", "--format", format, rep); r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("%s: exit %d %q", format, r.code, r.stderr)
		}
	}
	page := filepath.Join(dir, "r.html")
	if r := attestCLI(t, nil, "render", "--format", "html", "--key", filepath.Join(dir, "k.pub.pem"), "--out", page, filepath.Join(dir, "r.sigstore.json")); r.code != 0 {
		t.Fatalf("bundle: exit %d %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(page)
	if !strings.Contains(string(b), `id="verification"`) || !strings.Contains(string(b), "signed by keyid") {
		t.Error("the page of a bundle shows no verification")
	}
	other, _ := keys.Generate(keys.Ed25519)
	keys.Write(filepath.Join(dir, "other"), other)
	if r := attestCLI(t, nil, "render", "--format", "markdown", "--key", filepath.Join(dir, "other.pub.pem"), filepath.Join(dir, "r.sigstore.json")); r.code != 1 || !strings.Contains(r.stdout, "### attest") || !strings.Contains(r.stderr, "failed verification") {
		t.Errorf("wrong key: exit %d %q", r.code, r.stderr)
	}
	os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"a": 1}`), 0o644)
	if r := attestCLI(t, nil, "render", filepath.Join(dir, "x.json")); r.code != 2 {
		t.Errorf("not a report: exit %d", r.code)
	}
	if r := attestCLI(t, nil, "render", "--format", "pdf", rep); r.code != 2 || !strings.Contains(r.stderr, "markdown, html") {
		t.Errorf("bad format: exit %d %q", r.code, r.stderr)
	}
}

// TestMCPServeCommand: attest mcp serve passes stdio through to the
// companion: a go-sdk client lists its tools through the attest binary.
func TestMCPServeCommand(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(attesttest.Binary(t), "mcp", "serve", "--root", dir)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := gomcp.NewClient(&gomcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &gomcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("%v %+v", err, tools)
	}
}

// TestOSVDownExits2: a blocking check that errors (OSV unreachable under
// --net) makes the verdict insufficient, which exits 2 in text, JSON and
// batch modes, and the text report ends with the verdict and its reason.
func TestOSVDownExits2(t *testing.T) {
	srv := httptest.NewTLSServer(nil)
	url := srv.URL
	srv.Close()
	t.Setenv(depsnoknownvulns.EnvOSVURL, url)
	fixture := "../../checks/deps-no-known-vulns/testdata/pos/fail-mcp-npm-critical"
	r := attestCLI(t, nil, "run", "--net", "--kind", "mcp", fixture)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 2 || lines[len(lines)-1] != "INSUFFICIENT: blocking check could not run (error): deps-no-known-vulns" {
		t.Errorf("text: exit %d, last line %q\n%s", r.code, lines[len(lines)-1], r.stderr)
	}
	if r := attestCLI(t, nil, "run", "--net", "--kind", "mcp", "--json", fixture); r.code != 2 || !strings.Contains(r.stdout, `"verdict": "insufficient"`) {
		t.Errorf("json: exit %d", r.code)
	}
	if r := attestCLI(t, nil, "run", "--net", "--kind", "mcp", "--no-cache", fixture, samples+"/pdf-forms"); r.code != 2 || !strings.Contains(r.stdout, "insufficient") {
		t.Errorf("batch: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Offline the same artifact passes nothing it could not judge on: the
	// skip for a missing capability leaves the verdict to the rest.
	if r := attestCLI(t, nil, "run", "--kind", "mcp", fixture); r.code == 2 {
		t.Errorf("offline: exit 2\n%s", r.stdout)
	}
}
