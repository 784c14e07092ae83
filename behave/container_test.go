package behave

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEngine puts a docker on PATH that answers with script.
func fakeEngine(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "args")
	body := "#!/bin/sh\nLOG=" + log + "\n" + script
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	return log
}

// An engine that does not answer is unavailable, with its own words.
func TestContainerUnavailable(t *testing.T) {
	fakeEngine(t, "echo 'Cannot connect to the Docker daemon' >&2; exit 1\n")
	_, err := (&Container{Engine: "docker"}).Probe(context.Background())
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Cannot connect to the Docker daemon") {
		t.Fatalf("%v", err)
	}
	if _, err := SandboxNamed("e2b"); !errors.Is(err, ErrCloud) {
		t.Fatalf("e2b: %v (behave/e2b provides it)", err)
	}
	if _, err := SandboxNamed("chroot"); err == nil {
		t.Fatal("an unknown sandbox accepted")
	}
}

// The container runs with no network, as nobody, read-only, with the
// limits, the artifact read-only and tmpfs work directories.
func TestContainerArgs(t *testing.T) {
	log := fakeEngine(t, `case "$1" in
version) echo 27.1.0 ;;
run) echo "$@" > $LOG ;;
esac
`)
	t.Setenv("ATTEST_SANDBOX_IMAGE", "example/img:1")
	v, err := (&Container{Engine: "docker"}).Probe(context.Background())
	if err != nil || v != "docker 27.1.0" {
		t.Fatalf("%q %v", v, err)
	}
	data, _ := os.ReadFile(log)
	args := string(data)
	for _, want := range []string{"run --rm -i --name attest-", "--network=none", "--user 65534:65534", "--read-only", "--cap-drop=ALL",
		"--security-opt=no-new-privileges", "--pids-limit 16", "--memory 1073741824", "--ulimit fsize=1048576:1048576",
		"--tmpfs /work:rw,size=1048576", "--tmpfs /home/user:rw", ":/artifact:ro", "example/img:1 true"} {
		if !strings.Contains(args, want) {
			t.Errorf("missing %q in %s", want, args)
		}
	}
	sb, _ := SandboxNamed("gvisor")
	c := sb.(*Container)
	argv, err := c.argv("docker", "n", Spec{Artifact: "/a", Argv: []string{"x"}, Binds: []Bind{{Host: "/h", Sandbox: "/s"}}}, DefaultLimits)
	if err != nil || !strings.Contains(strings.Join(argv, " "), "--runtime=runsc") || !strings.Contains(strings.Join(argv, " "), "-v /h:/s:ro") || c.Name() != "gvisor" {
		t.Fatalf("%v %v", argv, err)
	}
}
