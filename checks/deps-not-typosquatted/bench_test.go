package depsnottyposquatted

import "testing"

// BenchmarkCheckCold is one run's cost: parse the data, then judge a
// dozen names (the MCP reference server "everything" declares 13).
func BenchmarkCheckCold(b *testing.B) {
	names := []string{"@modelcontextprotocol/sdk", "express", "zod", "zod-to-json-schema", "cors", "jszip", "typescript", "shx", "@types/express", "@types/cors", "@types/jszip", "prettier", "vitest"}
	for b.Loop() {
		d := NewData(NPM, string(npmPopular), string(npmNeighbours), npmKeys)
		for _, x := range names {
			d.Check(x)
		}
	}
}
