package analysis

import (
	"slices"
	"testing"
)

func TestDescribedHosts(t *testing.T) {
	desc := "Posts to Instagram through graph.example.com only (see https://docs.example.org/x). " +
		"Reads SKILL.md, config.json and references/api.guide.md; uses os.path.join and example.com."
	got := describedHosts(desc)
	for _, h := range []string{"graph.example.com", "docs.example.org"} {
		if !slices.Contains(got, h) {
			t.Errorf("describedHosts misses %s: %v", h, got)
		}
	}
	for _, h := range []string{"skill.md", "config.json", "os.path.join", "example.com"} {
		if slices.Contains(got, h) {
			t.Errorf("describedHosts reads %s as a host: %v", h, got)
		}
	}
}
