package resolve

import (
	"context"
	"os"
	"testing"
)

// BenchmarkLoadDir resolves and inventories the directory named by
// ATTEST_BENCH_DIR (for example a checkout of a public MCP server).
func BenchmarkLoadDir(b *testing.B) {
	dir := os.Getenv("ATTEST_BENCH_DIR")
	if dir == "" {
		b.Skip("set ATTEST_BENCH_DIR to a directory to resolve")
	}
	for b.Loop() {
		if _, err := Load(context.Background(), dir, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
