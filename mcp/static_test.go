package mcp

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/lex/fold"
)

func discover(t *testing.T, lang string, files map[string]string) *Surface {
	t.Helper()
	var srcs []Source
	parsed := map[string]*fold.File{}
	for p, text := range files {
		src := Source{Path: p, Lang: lang, Text: text}
		if lang != "go" {
			src.Parsed = fold.Parse(lang, text)
			parsed[p] = src.Parsed
		}
		srcs = append(srcs, src)
	}
	fold.Link(parsed)
	return Discover(srcs)
}

func tool(t *testing.T, s *Surface, name string) Tool {
	t.Helper()
	for _, x := range s.Tools {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("no tool %q in %+v", name, s.Tools)
	return Tool{}
}

func TestDiscoverTypeScript(t *testing.T) {
	s := discover(t, "js", map[string]string{
		"src/echo.ts": `import { z } from "zod";
const PREFIX = "Echoes back ";
export const EchoSchema = z.object({
  message: z.string().describe("Message to echo"),
});
const name = "echo";
const config = {
  title: "Echo Tool",
  description: PREFIX + "the input string",
  inputSchema: EchoSchema,
  annotations: { readOnlyHint: true },
};
export const register = (server) => {
  server.registerTool(name, config, async (args) => ({ content: [] }));
};
`,
		"src/index.ts": `server.tool("add", "Adds two " + "numbers", { a: z.number().describe("first"), b: z.number() }, async ({a, b}) => ({}));
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "list_files", description: ` + "`Lists the files`" + `, inputSchema: { type: "object", properties: { path: { type: "string", description: "Directory" } } } }],
}));
server.registerTool("dyn", { description: await loadDescription(), inputSchema: {} }, handler);
server.registerPrompt("review", { title: "Review", description: "Reviews code", argsSchema: { code: z.string().describe("The code") } }, h);
server.registerResource("readme", "file:///README.md", { description: "The readme", mimeType: "text/markdown" }, h);
server.registerResource("user", new ResourceTemplate("users://{id}", { list: undefined }), { description: "A user" }, h);
`,
	})
	e := tool(t, s, "echo")
	if e.Title != "Echo Tool" || e.Description != "Echoes back the input string" || len(e.Params) != 1 || e.Params[0].Description != "Message to echo" || e.Annotations["readOnlyHint"] != true {
		t.Errorf("echo: %+v", e)
	}
	if a := tool(t, s, "add"); a.Description != "Adds two numbers" || len(a.Params) != 2 || a.Params[0].Description != "first" {
		t.Errorf("add: %+v", a)
	}
	if l := tool(t, s, "list_files"); l.Description != "Lists the files" || len(l.Params) != 1 || l.Params[0].Description != "Directory" || SchemaSHA256(l.InputSchema) == "" {
		t.Errorf("list_files: %+v", l)
	}
	if len(s.Tools) != 4 {
		t.Errorf("%d tools, want 4 (a registered config is not counted twice)", len(s.Tools))
	}
	if len(s.Unresolved) != 1 || s.Unresolved[0].Name != "dyn" || s.Unresolved[0].What != "description" {
		t.Errorf("unresolved: %+v", s.Unresolved)
	}
	if len(s.Prompts) != 1 || s.Prompts[0].Description != "Reviews code" || len(s.Prompts[0].Arguments) != 1 || s.Prompts[0].Arguments[0].Description != "The code" {
		t.Errorf("prompts: %+v", s.Prompts)
	}
	if len(s.Resources) != 2 || s.Resources[0].URI != "file:///README.md" || s.Resources[1].URITemplate != "users://{id}" {
		t.Errorf("resources: %+v", s.Resources)
	}
}

func TestDiscoverPython(t *testing.T) {
	s := discover(t, "python", map[string]string{
		"server.py": `from enum import Enum
from mcp.server.fastmcp import FastMCP
from mcp.types import Tool, Prompt, PromptArgument
from pydantic import Field
from typing import Annotated

mcp = FastMCP("demo")

class Tools(str, Enum):
    STATUS = "git_status"

@mcp.tool()
async def weather(city: Annotated[str, Field(description="City name")], ctx: Context) -> str:
    """Returns the weather for a city."""
    return "sunny"

@mcp.tool(name="forecast", description="Forecast " + "for days")
def fc(days: int = Field(default=3, description="Number of days")):
    return []

@mcp.prompt()
def review(code: str) -> str:
    """Review this code."""
    return code

@mcp.resource("config://app")
def config() -> str:
    """App configuration."""
    return "{}"

@server.list_tools()
async def list_tools() -> list[Tool]:
    return [
        Tool(name=Tools.STATUS, description="Shows the working tree status", inputSchema={"type": "object", "properties": {"repo": {"type": "string", "description": "Repository path"}}}),
        Tool(name=Tools.STATUS.value, description=load_description(), inputSchema={}),
    ]
`,
	})
	w := tool(t, s, "weather")
	if w.Description != "Returns the weather for a city." || len(w.Params) != 1 || w.Params[0].Name != "city" || w.Params[0].Description != "City name" || w.Site.Handler != "weather" {
		t.Errorf("weather: %+v", w)
	}
	if f := tool(t, s, "forecast"); f.Description != "Forecast for days" || len(f.Params) != 1 || f.Params[0].Description != "Number of days" {
		t.Errorf("forecast: %+v", f)
	}
	if g := tool(t, s, "git_status"); g.Description != "Shows the working tree status" || len(g.Params) != 1 || g.Params[0].Description != "Repository path" {
		t.Errorf("git_status: %+v", g)
	}
	if len(s.Unresolved) != 1 || s.Unresolved[0].What != "description" {
		t.Errorf("unresolved: %+v", s.Unresolved)
	}
	if len(s.Prompts) != 1 || s.Prompts[0].Description != "Review this code." || len(s.Resources) != 1 || s.Resources[0].URI != "config://app" || s.Resources[0].Description != "App configuration." {
		t.Errorf("prompts %+v resources %+v", s.Prompts, s.Resources)
	}
}

func TestDiscoverGo(t *testing.T) {
	s := discover(t, "go", map[string]string{
		"main.go": `package main

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	m3 "github.com/mark3labs/mcp-go/mcp"
)

const base = "Returns the "

var weatherDesc = base + "weather for a city"

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "weather", Description: weatherDesc}, weather)
	server.AddTool(&mcp.Tool{Name: "dyn", Description: load()}, h)
	server.AddPrompt(&mcp.Prompt{Name: "review", Description: "Reviews code", Arguments: []*mcp.PromptArgument{{Name: "code", Description: "The code"}}}, h)
	server.AddResource(&mcp.Resource{Name: "readme", URI: "file:///README.md", Description: "The readme"}, h)
	t := m3.NewTool("forecast", m3.WithDescription("Forecast "+"for days"), m3.WithNumber("days", m3.Required(), m3.Description("Number of days")))
	_ = t
	_ = m3.NewPrompt("greet", m3.WithPromptDescription("Greets"), m3.WithArgument("name", m3.ArgumentDescription("Who")))
}
`,
	})
	if w := tool(t, s, "weather"); w.Description != "Returns the weather for a city" || w.Site.Handler != "weather" || w.Site.Line != 14 {
		t.Errorf("weather: %+v", w)
	}
	if f := tool(t, s, "forecast"); f.Description != "Forecast for days" || len(f.Params) != 1 || f.Params[0].Description != "Number of days" {
		t.Errorf("forecast: %+v", f)
	}
	if len(s.Unresolved) != 1 || s.Unresolved[0].What != "Description" {
		t.Errorf("unresolved: %+v", s.Unresolved)
	}
	if len(s.Prompts) != 2 || s.Prompts[1].Arguments[0].Description != "The code" || s.Prompts[0].Arguments[0].Description != "Who" {
		t.Errorf("prompts: %+v", s.Prompts)
	}
	if len(s.Resources) != 1 || s.Resources[0].URI != "file:///README.md" {
		t.Errorf("resources: %+v", s.Resources)
	}
}

func FuzzDiscover(f *testing.F) {
	f.Add("server.registerTool(n, {description: d + `x`}, h)", "@mcp.tool()\ndef f(a: Annotated[str, Field(description='x')]):\n    '''doc'''", "package p\nfunc f() { mcp.AddTool(s, &mcp.Tool{Name: \"a\" + b}, h) }")
	f.Fuzz(func(t *testing.T, js, py, goSrc string) {
		s := Discover([]Source{
			{Path: "a.js", Lang: "js", Text: js, Parsed: fold.Parse("js", js)},
			{Path: "a.py", Lang: "python", Text: py, Parsed: fold.Parse("python", py)},
			{Path: "a.go", Lang: "go", Text: goSrc},
		})
		s.Strings(func(kind, entry, field, text string, site Site) bool {
			if strings.HasPrefix(site.File, "/") {
				t.Fatalf("site %+v", site)
			}
			return true
		})
	})
}
