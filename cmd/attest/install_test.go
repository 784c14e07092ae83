package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	depsnoknownvulns "github.com/metahub-ai/attest/checks/deps-no-known-vulns"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan/osvtest"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
	"github.com/metahub-ai/attest/resolve/remote/gittest"
)

// installedAttest is attest as a user installs it: 'go install ./cmd/attest'
// alone, into an empty GOBIN.
func installedAttest(t *testing.T) (bin string, env []string) {
	t.Helper()
	gobin := t.TempDir()
	cmd := exec.Command("go", "install", "./cmd/attest")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/attest: %v\n%s", err, out)
	}
	entries, _ := os.ReadDir(gobin)
	if len(entries) != 1 || entries[0].Name() != "attest" {
		t.Fatalf("go install wrote %v; want the one binary", entries)
	}
	// Nothing else of attest's on PATH: the one binary must do it all.
	env = append(os.Environ(), "PATH="+gobin+string(os.PathListSeparator)+"/usr/bin:/bin", "ATTEST_HOME="+t.TempDir(), "ATTEST_CACHE_DIR="+t.TempDir())
	return filepath.Join(gobin, "attest"), env
}

type cliRun struct {
	code           int
	stdout, stderr string
}

func runBin(t *testing.T, bin string, env []string, dir string, args ...string) cliRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("attest %v: %v", args, err)
	}
	return cliRun{code, out.String(), errb.String()}
}

// startLog runs 'attest log serve' with the installed binary and returns
// its URL.
func startLog(t *testing.T, bin string, env []string, dir string) string {
	t.Helper()
	srv := exec.Command(bin, "log", "serve", "--dir", dir, "--addr", "127.0.0.1:0")
	srv.Env = env
	out, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+) `).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("log serve said %q", line)
	}
	return m[1]
}

// TestInstalledBinaryDoesEverything: 'go install ./cmd/attest' alone, then
// keygen, run --sign, verify --artifact, render of the bundle, a remote
// git target over loopback, --net against a local OSV fake (and the fake
// down: exit 2), and log serve with sign --log, all with that one binary.
func TestInstalledBinaryDoesEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs attest")
	}
	bin, env := installedAttest(t)
	dir := t.TempDir()
	sample, _ := filepath.Abs(samples + "/pdf-forms")
	step := func(name string, r cliRun, want int, contains ...string) {
		t.Helper()
		ok := r.code == want
		for _, c := range contains {
			ok = ok && strings.Contains(r.stdout+r.stderr, c)
		}
		if !ok {
			t.Fatalf("%s: exit %d (want %d), want %q in\n%s\n%s", name, r.code, want, contains, r.stdout, r.stderr)
		}
	}

	step("--version", runBin(t, bin, env, dir, "--version"), 0, "attest "+Version)
	step("keygen", runBin(t, bin, env, dir, "keygen", "--algorithm", "ecdsa-p256", "--out", "publisher"), 0, "keyid ")
	step("run --sign", runBin(t, bin, env, dir, "run", sample, "--json", "-o", "r.json", "--sign", "--key", "publisher.pem"), 0, "wrote r.sigstore.json")
	step("verify --artifact", runBin(t, bin, env, dir, "verify", "--key", "publisher.pub.pem", "--artifact", sample, "r.sigstore.json"), 0,
		"ok    signature", "ok    subject digest", "ok    results")
	step("verify without a signer", runBin(t, bin, env, dir, "verify", "--artifact", sample, "r.sigstore.json"), 1, "no trusted signer given")
	step("render of the bundle", runBin(t, bin, env, dir, "render", "--key", "publisher.pub.pem", "--format", "html", "--out", "r.html", "r.sigstore.json"), 0)
	if b, err := os.ReadFile(filepath.Join(dir, "r.html")); err != nil || !bytes.Contains(b, []byte("pdf-forms")) {
		t.Fatalf("render: %v", err)
	}

	// A remote git target, served on loopback.
	g := gittest.NewServer(t)
	g.Repo(t, "skills", func(w string, commit func(string) string) {
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms from a table of values. Use when the user asks to fill a form.\n---\n\nRead the form's fields, map each value to its field, and write a filled copy beside the original.\n", 0o644)
		commit("one")
	})
	r := runBin(t, bin, env, dir, "run", "--json", g.URL+"/skills.git//skills/pdf")
	if r.code == 2 || !strings.Contains(r.stdout, `"type": "git"`) || !strings.Contains(r.stdout, `"path": "skills/pdf"`) {
		t.Fatalf("remote git target: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// --net against a local OSV fake over HTTPS, then with it down.
	fake := &osvtest.FakeOSV{
		Advisories: map[string]map[string]any{"GHSA-crit": osvtest.Advisory("GHSA-crit", "npm", "lodash", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "4.17.21")},
		Affects:    map[string][]string{"npm/lodash@4.17.20": {"GHSA-crit"}},
	}
	osv := httptest.NewTLSServer(fake)
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: osv.Certificate().Raw}), 0o644)
	netEnv := append(append([]string{}, env...), "SSL_CERT_FILE="+ca, depsnoknownvulns.EnvOSVURL+"="+osv.URL)
	fixture, _ := filepath.Abs("../../checks/deps-no-known-vulns/testdata/pos/fail-mcp-npm-critical")
	step("--net", runBin(t, bin, netEnv, dir, "run", "--net", "--kind", "mcp", fixture), 1, "GHSA-crit", "FAIL: blocked by deps-no-known-vulns")
	if len(fake.Requests) == 0 {
		t.Fatal("the OSV fake was never asked")
	}
	osv.Close()
	step("--net, OSV down", runBin(t, bin, netEnv, dir, "run", "--net", "--kind", "mcp", fixture), 2,
		"INSUFFICIENT: blocking check could not run (error): deps-no-known-vulns")

	// log serve, sign --log, verify against the log's trusted root.
	url := startLog(t, bin, env, filepath.Join(dir, "log"))
	tr := runBin(t, bin, env, dir, "log", "trusted-root", "--dir", filepath.Join(dir, "log"))
	step("log trusted-root", tr, 0)
	os.WriteFile(filepath.Join(dir, "trusted_root.json"), []byte(tr.stdout), 0o644)
	step("sign --log", runBin(t, bin, env, dir, "sign", "--key", "publisher.pem", "--log", url, "--out", "logged.sigstore.json", "r.json"), 0, "logged at index")
	step("verify the logged bundle", runBin(t, bin, env, dir, "verify", "--key", "publisher.pub.pem", "--trusted-root", "trusted_root.json", "--artifact", sample, "logged.sigstore.json"), 0,
		"ok    transparency log", "ok    subject digest")
}

// readmeCommands returns the README's cosign commands, continuation lines
// joined.
func readmeCommands(t *testing.T, prefix string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		c := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(c, prefix) {
			continue
		}
		for strings.HasSuffix(c, "\\") && i+1 < len(lines) {
			i++
			c = strings.TrimSuffix(c, "\\") + " " + strings.TrimSpace(lines[i])
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// TestCosignVerifiesBundles: cosign verify-blob-attestation, run as the
// README documents it, verifies a keyed bundle and one logged in
// 'attest log serve', and refuses them for another artifact's digest.
func TestCosignVerifiesBundles(t *testing.T) {
	cosign := os.Getenv("ATTEST_COSIGN")
	if cosign == "" {
		cosign, _ = exec.LookPath("cosign")
	}
	if cosign == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("cosign is not installed in CI (.ci/run installs it and sets ATTEST_COSIGN)")
		}
		t.Skip("SKIPPING: cosign is not installed (set ATTEST_COSIGN, or go install github.com/sigstore/cosign/v3/cmd/cosign@v3.1.3)")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("SKIPPING: jq is not installed (the README's command reads the digest with it)")
	}
	var cmds, release []string
	for _, c := range readmeCommands(t, "cosign verify-blob-attestation") {
		if strings.Contains(c, "in-toto.io/attestation/release") {
			release = append(release, c)
		} else {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) != 2 || len(release) != 1 {
		t.Fatalf("the README documents %d report and %d release cosign commands; want the keyed one, the logged one and the release one", len(cmds), len(release))
	}
	bin := attesttest.Binary(t)
	env := append(os.Environ(), "PATH="+filepath.Dir(cosign)+string(os.PathListSeparator)+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	sample, _ := filepath.Abs(samples + "/pdf-forms")
	for _, args := range [][]string{
		{"keygen", "--algorithm", "ecdsa-p256", "--out", "publisher"},
		{"run", sample, "--json", "-o", "r.json", "--sign", "--key", "publisher.pem"},
	} {
		if r := runBin(t, bin, env, dir, args...); r.code != 0 {
			t.Fatalf("attest %v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	url := startLog(t, bin, env, filepath.Join(dir, "log"))
	tr := runBin(t, bin, env, dir, "log", "trusted-root", "--dir", filepath.Join(dir, "log"))
	os.WriteFile(filepath.Join(dir, "trusted_root.json"), []byte(tr.stdout), 0o644)
	os.Rename(filepath.Join(dir, "r.sigstore.json"), filepath.Join(dir, "keyed.sigstore.json"))
	if r := runBin(t, bin, env, dir, "sign", "--key", "publisher.pem", "--log", url, "--out", "logged.sigstore.json", "r.json"); r.code != 0 {
		t.Fatalf("sign --log: exit %d\n%s", r.code, r.stderr)
	}
	shIn := func(dir string) func(c string) (int, string) {
		return func(c string) (int, string) {
			cmd := exec.Command("bash", "-c", c)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode(), string(out)
			}
			return 0, string(out)
		}
	}
	sh := shIn(dir)
	for i, bundle := range []string{"keyed.sigstore.json", "logged.sigstore.json"} {
		c := strings.ReplaceAll(cmds[i], "r.sigstore.json", bundle)
		if code, out := sh(c); code != 0 || !strings.Contains(out, "Verified OK") {
			t.Errorf("%s: %s\nexit %d: %s", bundle, c, code, out)
		}
		// The same command about another artifact's tree is refused.
		other := strings.Replace(c, "$(jq -r .subject.digest.sha256 r.json)", strings.Repeat("0", 64), 1)
		if code, _ := sh(other); code == 0 {
			t.Errorf("%s: cosign accepted another digest", bundle)
		}
	}
	// The release attestation of a checksums.txt, as the release build
	// signs it: the README's command verifies an archive it lists, and
	// refuses one that was changed.
	rel := t.TempDir()
	archive := filepath.Join(rel, "attest_0.1.0_linux_amd64.tar.gz")
	os.WriteFile(archive, []byte("an archive"), 0o644)
	os.WriteFile(filepath.Join(rel, "attest_0.1.0_darwin_arm64.tar.gz"), []byte("another"), 0o644)
	var sums bytes.Buffer
	for _, n := range []string{"attest_0.1.0_darwin_arm64.tar.gz", "attest_0.1.0_linux_amd64.tar.gz"} {
		b, _ := os.ReadFile(filepath.Join(rel, n))
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(b), n)
	}
	os.WriteFile(filepath.Join(rel, "checksums.txt"), sums.Bytes(), 0o644)
	for _, args := range [][]string{
		{"keygen", "--algorithm", "ecdsa-p256", "--out", "attest-release"},
		{"sign", "--checksums", "--key", "attest-release.pem", "--purl", "pkg:github/metahub-ai/attest@v0.1.0", "--out", "checksums.txt.sigstore.json", "checksums.txt"},
	} {
		if r := runBin(t, bin, env, rel, args...); r.code != 0 {
			t.Fatalf("attest %v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	relSh := shIn(rel)
	if code, out := relSh(release[0]); code != 0 || !strings.Contains(out, "Verified OK") {
		t.Errorf("release: %s\nexit %d: %s", release[0], code, out)
	}
	os.WriteFile(archive, []byte("a changed archive"), 0o644)
	if code, _ := relSh(release[0]); code == 0 {
		t.Error("cosign accepted a changed archive against the release attestation")
	}

	var rep struct {
		Subject struct{ Digest struct{ SHA256 string } }
	}
	b, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if json.Unmarshal(b, &rep) != nil || len(rep.Subject.Digest.SHA256) != 64 {
		t.Fatal("r.json carries no tree digest")
	}
}
