package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
)

// hangBound is how long a command on a handful of small inputs may take
// before it counts as blocked: a bound on a hang, not a measure of speed.
const hangBound = 15 * time.Second

func mkfifo(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// releaseFIFOs opens every FIFO under dir for writing and closes it, so
// that a reader blocked on one reads end-of-file.
func releaseFIFOs(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeNamedPipe != 0 {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		return nil
	})
}

// cliWithin runs the command in-process and fails the test when it has
// not returned within hangBound; the FIFOs under release are then fed
// end-of-file so that the blocked command ends with the test.
func cliWithin(t *testing.T, release string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		code := runApp(context.Background(), a, args)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(hangBound):
		releaseFIFOs(release)
		t.Fatalf("attest %s blocked for %s", strings.Join(args, " "), hangBound)
		return result{}
	}
}

// TestHostileFIFOArgumentsDoNotBlock gives a FIFO wherever a command
// reads a file the user names: each command answers at once, exit 2,
// saying the path is not a regular file.
func TestHostileFIFOArgumentsDoNotBlock(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, filepath.Join(dir, "fifo"))
	skill, _ := filepath.Abs(samples + "/pdf-forms")
	report, _ := filepath.Abs("../../testdata/report/skill-pass.json")
	k, _ := keys.Generate(keys.Ed25519)
	keys.Write(filepath.Join(dir, "k"), k)
	pub := filepath.Join(dir, "k.pub.pem")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run --from", []string{"run", "--from", fifo}},
		{"run --config", []string{"run", "--config", fifo, skill}},
		{"run --surface", []string{"run", "--surface", fifo}},
		{"run --lock", []string{"run", "--lock", fifo, skill}},
		{"render", []string{"render", fifo}},
		{"diff", []string{"diff", fifo, report}},
		{"verify", []string{"verify", fifo}},
		{"verify --key", []string{"verify", "--key", fifo, report}},
		{"verify --policy", []string{"verify", "--key", pub, "--policy", fifo, report}},
		{"verify --trusted-root", []string{"verify", "--trusted-root", fifo, report}},
		{"sign --key", []string{"sign", "--key", fifo, report}},
		{"log verify --since", []string{"log", "verify", "--url", "http://127.0.0.1:9", "--key", pub, "--since", fifo}},
		{"log verify --key", []string{"log", "verify", "--url", "http://127.0.0.1:9", "--key", fifo, "--since", report}},
		{"log verify --trusted-root", []string{"log", "verify", "--url", "http://127.0.0.1:9", "--trusted-root", fifo, "--since", report}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := cliWithin(t, dir, c.args...)
			if r.code != exitError || !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("attest %s: exit %d, want 2 saying it is not a regular file\n%s", strings.Join(c.args, " "), r.code, r.stderr)
			}
		})
	}
}

// TestHostileFilesAroundTheTarget puts FIFOs where attest looks by
// itself, in the agent clients' configuration files of 'scan
// --installed', and links where it reads the artifact's own files beside
// the inventory (its lock file, the attest.json of the working
// directory): nothing blocks, and no link is followed out of the tree.
func TestHostileFilesAroundTheTarget(t *testing.T) {
	base := t.TempDir()
	project, home := filepath.Join(base, "project"), filepath.Join(base, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("ATTEST_CACHE_DIR", t.TempDir())
	copyDir(t, samples+"/pdf-forms", filepath.Join(project, "skill"))
	mkfifo(t, filepath.Join(project, ".mcp.json"))
	mkfifo(t, filepath.Join(home, ".claude.json"))
	mkfifo(t, filepath.Join(home, ".claude", "settings.json"))
	mkfifo(t, filepath.Join(home, ".codex", "config.toml"))
	t.Chdir(project)
	r := cliWithin(t, base, "scan", "--installed", "--json")
	if !strings.Contains(r.stdout, ".mcp.json") || !strings.Contains(r.stdout, "not a regular file") {
		t.Errorf("scan --installed: the FIFOs are not reported unreadable: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// A link named attest.lock.json in the artifact is not followed out of
	// it: the file it names is not read as the artifact's lock.
	skill := filepath.Join(project, "skill")
	outside := filepath.Join(t.TempDir(), "lock.json")
	os.WriteFile(outside, []byte("not a lock file"), 0o644)
	if err := os.Symlink(outside, filepath.Join(skill, "attest.lock.json")); err != nil {
		t.Fatal(err)
	}
	r = cliWithin(t, project, "run", skill)
	if r.code == exitError || strings.Contains(r.stderr, "lock") {
		t.Errorf("the lock file was read through a link out of the artifact: exit %d\n%s", r.code, r.stderr)
	}

	// Nor is an attest.json link in the working directory, the artifact,
	// applied as the artifact's configuration.
	os.Remove(filepath.Join(skill, "attest.lock.json"))
	config := filepath.Join(t.TempDir(), "attest.json")
	os.WriteFile(config, []byte(`{"disable": ["license-present"]}`), 0o644)
	if err := os.Symlink(config, filepath.Join(skill, "attest.json")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(skill)
	r = cliWithin(t, project, "run", "--json", ".")
	if strings.Contains(r.stderr, "applying") || regexp.MustCompile(`"disabled":\s*\[\s*"license-present"`).MatchString(r.stdout) {
		t.Errorf("a linked attest.json was applied: exit %d\n%s", r.code, r.stderr)
	}
}

// TestHostileMCPVerifyFIFO: the verify tool of 'attest mcp serve', given
// a FIFO under its root for the bundle, the key, the trusted root or the
// policy, answers with an error at once and keeps serving.
func TestHostileMCPVerifyFIFO(t *testing.T) {
	root := t.TempDir()
	mkfifo(t, filepath.Join(root, "fifo"))
	k, _ := keys.Generate(keys.Ed25519)
	keys.Write(filepath.Join(root, "k"), k)
	rep, err := os.ReadFile("../../testdata/report/skill-pass.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "report.json"), rep, 0o644)
	bin := attesttest.Binary(t) // built before the clock starts
	ctx, cancel := context.WithTimeout(context.Background(), 4*hangBound)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "serve", "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []map[string]any{
		{"bundle": "fifo"},
		{"bundle": "report.json", "key": "fifo"},
		{"bundle": "report.json", "trustedRoot": "fifo"},
		{"bundle": "report.json", "key": "k.pub.pem", "policy": "fifo"},
	} {
		cctx, ccancel := context.WithTimeout(ctx, hangBound)
		res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "verify", Arguments: args})
		ccancel()
		if err != nil {
			releaseFIFOs(root)
			t.Fatalf("verify %v: %v", args, err)
		}
		b, _ := json.Marshal(res.Content)
		if !res.IsError || !strings.Contains(string(b), "not a regular file") {
			t.Errorf("verify %v: %s", args, b)
		}
	}
}

// TestBareOwnerRepoIsNotFetched: 'attest run skills/pdf' where
// ./skills/pdf does not exist is an error naming both readings, never a
// fetch of the GitHub repository skills/pdf.
func TestBareOwnerRepoIsNotFetched(t *testing.T) {
	t.Chdir(t.TempDir())
	r := attestCLI(t, nil, "run", "skills/pdf")
	if r.code != exitError || !strings.Contains(r.stderr, "gh:skills/pdf") || !strings.Contains(r.stderr, "./skills/pdf") || strings.Contains(r.stderr, "fetch") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
}
