package resolve

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	for dir, want := range map[string]Kind{
		"skill": KindSkill, "plugin": KindPlugin, "mcp-python": KindMCP, "mcp-python-import-only": KindMCP,
		"mcp-ts": KindMCP, "mcp-go": KindMCP, "agent-md": KindAgent, "agent-json": KindAgent, "agent-root-md": KindAgent,
	} {
		s, err := Load(context.Background(), filepath.Join("testdata", "detect", dir), LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if s.Kind != want {
			t.Errorf("%s: kind %s (%s), want %s", dir, s.Kind, s.KindReason, want)
		}
	}
}

func TestDetectCollection(t *testing.T) {
	_, err := Load(context.Background(), filepath.Join("testdata", "detect", "collection"), LoadOptions{})
	var ce *CollectionError
	if !errors.As(err, &ce) || strings.Join(ce.Members, ",") != "skills/docx,skills/pdf" {
		t.Fatalf("err = %v, want a collection of skills/docx and skills/pdf", err)
	}
}

func TestDetectUnknownNamesWhatItLookedFor(t *testing.T) {
	_, err := Load(context.Background(), filepath.Join("testdata", "detect", "nothing"), LoadOptions{})
	if !errors.Is(err, ErrUnknownKind) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"SKILL.md", "plugin.json", "server.json", "agent.json", "MCP client configuration"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message does not name %s: %v", want, err)
		}
	}
	s, err := Load(context.Background(), filepath.Join("testdata", "detect", "nothing"), LoadOptions{Kind: KindSkill})
	if err != nil || s.Kind != KindSkill || s.KindReason != "--kind" {
		t.Fatalf("--kind override: %v %+v", err, s)
	}
}

// A tree with documents or code and no manifest is judged under the
// closest kind, and says so, rather than left unevaluated.
func TestDetectClosestKind(t *testing.T) {
	s, err := Load(context.Background(), filepath.Join("testdata", "detect", "unknown"), LoadOptions{})
	if err != nil || s.Kind != KindSkill || !strings.Contains(s.KindReason, "no manifest") {
		t.Fatalf("err = %v, kind %q (%s); want a skill judged for want of a manifest", err, s.Kind, s.KindReason)
	}
}

func TestSubjectName(t *testing.T) {
	s, err := Load(context.Background(), filepath.Join("testdata", "detect", "mcp-go"), LoadOptions{})
	if err != nil || s.Name != "mcp-go" {
		t.Fatalf("name %q err %v", s.Name, err)
	}
	if GoModuleName("github.com/acme/weather/v2") != "weather" || GoModuleName("example.com/v2x") != "v2x" {
		t.Error("GoModuleName")
	}
}

// A client configuration alone is an MCP artifact of the client-config
// form; beside the server it launches, it is part of that server.
func TestDetectClientConfigForm(t *testing.T) {
	for dir, want := range map[string]Form{"client-config": FormClientConfig, "client-config-beside-server": FormPackage, "mcp-python": FormPackage} {
		s, err := Load(context.Background(), filepath.Join("testdata", "detect", dir), LoadOptions{})
		if err != nil || s.Kind != KindMCP || s.Form() != want {
			t.Errorf("%s: err %v, kind %s, form %s; want mcp, %s", dir, err, s.Kind, s.Form(), want)
		}
	}
	s, err := Load(context.Background(), filepath.Join("testdata", "detect", "mcp-python"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Source.Type = SourceSnapshot
	if s.Form() != FormSurface {
		t.Errorf("a snapshot source is form %s, want surface", s.Form())
	}
}
