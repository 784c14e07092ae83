package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBatchRun: several targets, a --from list and a collection directory
// are each evaluated; one report per target in --out-dir, a table or JSON
// lines; the second run comes from the cache; exit 1 when one fails.
func TestBatchRun(t *testing.T) {
	t.Setenv("ATTEST_CACHE_DIR", t.TempDir())
	out := t.TempDir()
	r := attestCLI(t, nil, "run", "--json", "--out-dir", out, samples+"/pdf-forms", samples+"/weather-go", samples+"/unsafe-skill")
	if r.code != 1 {
		t.Fatalf("a failing member: exit %d\n%s", r.code, r.stderr)
	}
	var lines []batchLine
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var bl batchLine
		if err := json.Unmarshal([]byte(l), &bl); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		lines = append(lines, bl)
	}
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if l.Report == "" || l.Cached {
			t.Errorf("%+v", l)
		}
		if b, err := os.ReadFile(l.Report); err != nil || validateReport(b) != nil {
			t.Errorf("%s: %v", l.Report, err)
		}
	}
	// Again: from the cache, same verdicts, in the table.
	r = attestCLI(t, nil, "run", samples+"/pdf-forms", samples+"/weather-go", samples+"/unsafe-skill")
	if r.code != 1 || strings.Count(r.stdout, "(cached)") != 3 || !strings.Contains(r.stderr, "3 from the cache") {
		t.Errorf("cached run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A collection is evaluated member by member.
	coll := t.TempDir()
	copyDir(t, samples+"/pdf-forms", filepath.Join(coll, "skills", "pdf-forms"))
	copyDir(t, samples+"/unsafe-skill", filepath.Join(coll, "skills", "unsafe"))
	r = attestCLI(t, nil, "run", "--no-cache", coll)
	if r.code != 1 || !strings.Contains(r.stderr, coll+" is a collection of 2 artifacts") || !strings.Contains(r.stdout, "pdf-forms") || !strings.Contains(r.stdout, "unsafe-skill") {
		t.Errorf("collection: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A list with a missing target: the others are evaluated, exit 2.
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("# targets\n"+samples+"/pdf-forms\n\n"+samples+"/does-not-exist\n"), 0o644)
	r = attestCLI(t, nil, "run", "--from", list)
	if r.code != 2 || !strings.Contains(r.stdout, "pdf-forms") || !strings.Contains(r.stdout, "error") {
		t.Errorf("--from with a missing target: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := attestCLI(t, nil, "run", "--sign", "--key", "k.pem", samples+"/pdf-forms", samples+"/weather-go"); r.code != 2 || !strings.Contains(r.stderr, "attest sign") {
		t.Errorf("--sign on a batch: exit %d %q", r.code, r.stderr)
	}
}

// TestShardFlag: the shards of a list together evaluate each target once.
func TestShardFlag(t *testing.T) {
	t.Setenv("ATTEST_CACHE_DIR", t.TempDir())
	all := []string{samples + "/pdf-forms", samples + "/weather-go", samples + "/weather-py", samples + "/weather-ts", samples + "/unsafe-skill"}
	seen := map[string]int{}
	for _, s := range []string{"1/3", "2/3", "3/3"} {
		r := attestCLI(t, nil, append([]string{"run", "--json", "--shard", s}, all...)...)
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			var bl batchLine
			if l != "" && json.Unmarshal([]byte(l), &bl) == nil {
				seen[bl.Target]++
			}
		}
	}
	for _, t2 := range all {
		if seen[t2] != 1 {
			t.Errorf("%s evaluated %d times across the shards", t2, seen[t2])
		}
	}
	if r := attestCLI(t, nil, "run", "--shard", "4/3", samples+"/pdf-forms"); r.code != 2 {
		t.Errorf("bad shard: exit %d", r.code)
	}
}

// TestCollectionOutDir: 'attest run DIR --out-dir D' on a collection
// writes one report per member, and the table names each target's path.
func TestCollectionOutDir(t *testing.T) {
	t.Setenv("ATTEST_CACHE_DIR", t.TempDir())
	coll := t.TempDir()
	for _, name := range []string{"alpha", "beta"} {
		os.MkdirAll(filepath.Join(coll, "skills", name), 0o755)
		os.WriteFile(filepath.Join(coll, "skills", name, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: Formats a table of values. Use when the user asks for a table.\n---\n\nRead the values and print them as a table.\n"), 0o644)
	}
	out := t.TempDir()
	r := attestCLI(t, nil, "run", coll, "--out-dir", out)
	if r.code == 2 {
		t.Fatalf("exit 2\n%s%s", r.stdout, r.stderr)
	}
	for _, name := range []string{"alpha", "beta"} {
		if _, err := os.Stat(filepath.Join(out, "skill-"+name+".json")); err != nil {
			t.Errorf("no report for %s: %v", name, err)
		}
		if !strings.Contains(r.stdout, filepath.Join("skills", name)+" ") {
			t.Errorf("the table does not name the target %s:\n%s", name, r.stdout)
		}
	}
}
