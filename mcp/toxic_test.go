package mcp

import (
	"slices"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for name, want := range map[string][]Capability{
		"fetch_url":    {UntrustedContent},
		"readFile":     {PrivateData},
		"send-message": {ExternalComm},
		"delete_repo":  {PrivateData, Destructive},
		"forecast":     nil,
		"search_files": {UntrustedContent, PrivateData},
	} {
		if got := Classify(name); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

// The trifecta across servers is flagged, with the tools; two legs are
// not; a shared tool name is shadowing.
func TestAnalyze(t *testing.T) {
	fs := Analyze(map[string][]string{
		"web":   {"fetch_url"},
		"files": {"read_file", "list_directory"},
		"slack": {"send_message"},
	})
	if len(fs) != 1 || fs[0].Kind != "toxic-combination" || !strings.Contains(fs[0].Summary, "across 3 artifacts") || len(fs[0].Tools) != 3 {
		t.Fatalf("%+v", fs)
	}
	if fs := Analyze(map[string][]string{"web": {"fetch_url"}, "files": {"read_file"}}); len(fs) != 0 {
		t.Errorf("two legs flagged: %+v", fs)
	}
	fs = Analyze(map[string][]string{"a": {"forecast"}, "b": {"forecast"}, "c": {"time"}})
	if len(fs) != 1 || fs[0].Kind != "tool-shadowing" || !strings.Contains(fs[0].Summary, "a and b") {
		t.Errorf("%+v", fs)
	}
}
