package render

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds a Chromium for the browser test: $ATTEST_CHROMIUM, then
// chromium on PATH (.ci/run installs Debian's).
func chromium(t *testing.T) string {
	if p := os.Getenv("ATTEST_CHROMIUM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium in CI: .ci/run installs Debian's chromium package")
	}
	t.Skip("SKIPPING: no chromium (apt-get install -y chromium, or set ATTEST_CHROMIUM)")
	return ""
}

// headless runs Chromium on a file with the flags a closed network
// needs, returning its standard output and its log.
func headless(t *testing.T, bin, page string, args ...string) (stdout, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String(), errb.String()
}

var consoleLine = regexp.MustCompile(`(?m)^.*:CONSOLE:.*$`)

// TestHTMLInChromium opens the HTML report in headless Chromium: the page
// loads with no console message (a blocked resource, a policy violation
// or a script error would each log one), shows the overall score, and a
// PNG screenshot is kept as a test artifact (in $ATTEST_TEST_ARTIFACTS, or
// the temporary directory), never committed.
func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	artifacts := os.Getenv("ATTEST_TEST_ARTIFACTS")
	if artifacts == "" {
		artifacts = filepath.Join(os.TempDir(), "attest-test-artifacts")
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"skill-fail", "mcp-typescript"} {
		r := load(t, "../testdata/report/"+name+".json")
		var b bytes.Buffer
		if err := Render(&b, r, HTML, Options{Verification: []Verification{{"signature", "ok", "signed by keyid 0f00"}}}); err != nil {
			t.Fatal(err)
		}
		page := filepath.Join(t.TempDir(), name+".html")
		if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		dom, log := headless(t, bin, page, "--dump-dom")
		if msgs := consoleLine.FindAllString(log, -1); len(msgs) > 0 {
			t.Errorf("%s: console messages:\n%s", name, strings.Join(msgs, "\n"))
		}
		want := `id="overall-score">` + score(r.Score.Overall) + "<"
		if !strings.Contains(dom, want) {
			t.Errorf("%s: the loaded page does not show %q", name, want)
		}
		shot := filepath.Join(artifacts, name+".png")
		headless(t, bin, page, "--screenshot="+shot, "--window-size=1280,1800", "--hide-scrollbars")
		if st, err := os.Stat(shot); err != nil || st.Size() < 1000 {
			t.Errorf("%s: no screenshot: %v", name, err)
		} else {
			t.Logf("screenshot: %s", shot)
		}
	}
	// The test can fail: a page with a script error logs a console line.
	bad := filepath.Join(t.TempDir(), "bad.html")
	os.WriteFile(bad, []byte(`<html><body><script>console.error("boom")</script></body></html>`), 0o644)
	if _, log := headless(t, bin, bad, "--dump-dom"); !consoleLine.MatchString(log) {
		t.Error("a console error went unseen: the check cannot fail")
	}
}

func score(f *float64) string {
	if f == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f", *f)
}
