package attest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/attest"
)

// BenchmarkEvaluateSmall is the whole pipeline (resolve, 11 checks, policy,
// score) on the bundled sample skill.
func BenchmarkEvaluateSmall(b *testing.B) {
	for b.Loop() {
		if _, err := attest.Evaluate(context.Background(), filepath.Join(samples, "pdf-forms"), attest.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// largeSkill makes a skill of 5,000 files (about 80 MB) once per process.
func largeSkill(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "attest-bench-large-skill")
	if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp("", "attest-bench-")
	if err != nil {
		b.Fatal(err)
	}
	var refs strings.Builder
	for i := 0; i < 5000; i++ {
		sub := filepath.Join(tmp, fmt.Sprintf("reference/part%02d", i%50))
		os.MkdirAll(sub, 0o755)
		body := strings.Repeat(fmt.Sprintf("Line %d of reference file %d, with `scripts/tool%d.py` mentioned.\n", i, i, i%20), 250)
		os.WriteFile(filepath.Join(sub, fmt.Sprintf("doc%04d.md", i)), []byte(body), 0o644)
		if i < 200 {
			fmt.Fprintf(&refs, "- [part %d](reference/part%02d/doc%04d.md)\n", i, i%50, i)
		}
	}
	os.MkdirAll(filepath.Join(tmp, "scripts"), 0o755)
	for i := 0; i < 20; i++ {
		os.WriteFile(filepath.Join(tmp, fmt.Sprintf("scripts/tool%d.py", i)), []byte("print('tool')\n"), 0o755)
	}
	os.WriteFile(filepath.Join(tmp, "SKILL.md"), []byte("---\nname: attest-bench-large-skill\ndescription: A large skill for benchmarks.\nlicense: MIT\n---\n# Large\n\n"+refs.String()), 0o644)
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
	}
	return dir
}

// BenchmarkEvaluateLarge is the pipeline on a 5,000-file, ~80 MB skill
// whose SKILL.md references 200 of its documents.
func BenchmarkEvaluateLarge(b *testing.B) {
	dir := largeSkill(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := attest.Evaluate(context.Background(), dir, attest.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateMinified is the pipeline on an MCP server whose code is
// one 250 KB minified line of assignments, calls and fetches: the shape
// that makes a per-statement scan quadratic if it reads to the line's end.
func BenchmarkEvaluateMinified(b *testing.B) {
	dir := b.TempDir()
	stmt := `var a=process.env.HOME,b=require("fs");function f(x){return x+1}if(a){b.readFileSync("/etc/hosts")}fetch("https://api.example.com/v1?q="+a).then(r=>r.json());`
	os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"minified","version":"1.0.0","main":"dist/index.min.js","dependencies":{"@modelcontextprotocol/sdk":"1.0.0"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "dist/index.min.js"), []byte(strings.Repeat(stmt, 1700)), 0o644)
	b.ResetTimer()
	for b.Loop() {
		if _, err := attest.Evaluate(context.Background(), dir, attest.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateDir is the pipeline on the directory named by
// ATTEST_BENCH_DIR (for example a checkout of a public MCP server), so
// figures in docs/PERFORMANCE.md can be reproduced in-process.
func BenchmarkEvaluateDir(b *testing.B) {
	dir := os.Getenv("ATTEST_BENCH_DIR")
	if dir == "" {
		b.Skip("set ATTEST_BENCH_DIR to a directory to evaluate")
	}
	for b.Loop() {
		if _, err := attest.Evaluate(context.Background(), dir, attest.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
