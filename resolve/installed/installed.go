// Package installed finds what the user's agent clients have installed:
// skills, agents, plugins, hooks and MCP servers in the configuration of
// Claude Code, Claude Desktop, Cursor, VS Code, Windsurf, Gemini CLI and
// Codex, user-wide and in the current project. It reads configuration
// files only (bounded), executes nothing, and says for each MCP server
// what attest can evaluate: a local directory, an npm or PyPI package, or
// nothing (a remote URL, a container, an unknown launcher).
package installed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/metahub-ai/attest/resolve"
)

// MaxConfigBytes bounds a client configuration file.
const MaxConfigBytes = 4 << 20

// Artifact is one installed artifact.
type Artifact struct {
	Client string `json:"client"` // claude-code, claude-desktop, cursor, vscode, windsurf, gemini, codex
	Scope  string `json:"scope"`  // user or project
	Kind   string `json:"kind"`   // skill, agent, plugin, mcp, hook
	Name   string `json:"name"`
	// Target is what attest run takes to evaluate it (a directory,
	// npm:NAME@VERSION, pypi:NAME==VERSION), or "" when it cannot.
	Target string `json:"target,omitempty"`
	// Note says why it cannot be evaluated, or what was assumed.
	Note string `json:"note,omitempty"`
	// Command and URL are how an MCP server is started or reached.
	Command []string `json:"command,omitempty"`
	URL     string   `json:"url,omitempty"`
	// Config is the file it was found in.
	Config string `json:"config"`
}

// Env is where to look: the home directory, the project directory, the
// operating system (for per-OS paths) and the user's config directories.
type Env struct {
	Home, Project, GOOS, AppData, XDGConfig string
}

// DefaultEnv is this machine's.
func DefaultEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return Env{}, err
	}
	return Env{Home: home, Project: wd, GOOS: runtime.GOOS, AppData: os.Getenv("APPDATA"), XDGConfig: os.Getenv("XDG_CONFIG_HOME")}, nil
}

func (e Env) config() string {
	if e.XDGConfig != "" {
		return e.XDGConfig
	}
	return filepath.Join(e.Home, ".config")
}

// claudeDesktopConfig is Claude Desktop's configuration file per OS.
func (e Env) claudeDesktopConfig() string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	case "windows":
		return filepath.Join(e.AppData, "Claude", "claude_desktop_config.json")
	}
	return filepath.Join(e.config(), "Claude", "claude_desktop_config.json")
}

func (e Env) vscodeUser() string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support", "Code", "User")
	case "windows":
		return filepath.Join(e.AppData, "Code", "User")
	}
	return filepath.Join(e.config(), "Code", "User")
}

// Find lists everything installed, with the files it could not read.
func Find(e Env) ([]Artifact, []error) {
	f := &finder{env: e}
	// Claude Code: skills, agents, plugins and hooks, user and project;
	// MCP servers in ~/.claude.json (user and per project) and .mcp.json.
	for _, sc := range []struct{ scope, dir string }{{"user", filepath.Join(e.Home, ".claude")}, {"project", filepath.Join(e.Project, ".claude")}} {
		f.skills("claude-code", sc.scope, filepath.Join(sc.dir, "skills"))
		f.agents("claude-code", sc.scope, filepath.Join(sc.dir, "agents"))
		f.hooks("claude-code", sc.scope, filepath.Join(sc.dir, "settings.json"))
		f.hooks("claude-code", sc.scope, filepath.Join(sc.dir, "settings.local.json"))
	}
	f.plugins(filepath.Join(e.Home, ".claude", "plugins"))
	f.claudeJSON(filepath.Join(e.Home, ".claude.json"))
	f.mcpJSON("claude-code", "project", filepath.Join(e.Project, ".mcp.json"), "mcpServers")
	f.mcpJSON("claude-desktop", "user", e.claudeDesktopConfig(), "mcpServers")
	f.mcpJSON("cursor", "user", filepath.Join(e.Home, ".cursor", "mcp.json"), "mcpServers")
	f.mcpJSON("cursor", "project", filepath.Join(e.Project, ".cursor", "mcp.json"), "mcpServers")
	f.mcpJSON("vscode", "user", filepath.Join(e.vscodeUser(), "mcp.json"), "servers")
	f.mcpJSON("vscode", "project", filepath.Join(e.Project, ".vscode", "mcp.json"), "servers")
	f.mcpJSON("windsurf", "user", filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json"), "mcpServers")
	f.mcpJSON("gemini", "user", filepath.Join(e.Home, ".gemini", "settings.json"), "mcpServers")
	f.mcpJSON("gemini", "project", filepath.Join(e.Project, ".gemini", "settings.json"), "mcpServers")
	f.codex(filepath.Join(e.Home, ".codex", "config.toml"))
	sort.SliceStable(f.out, func(i, j int) bool {
		a, b := f.out[i], f.out[j]
		if a.Client != b.Client {
			return a.Client < b.Client
		}
		if a.Scope != b.Scope {
			return a.Scope > b.Scope // user first
		}
		return a.Name < b.Name
	})
	return f.out, f.errs
}

type finder struct {
	env  Env
	out  []Artifact
	errs []error
}

func (f *finder) fail(p string, err error) {
	f.errs = append(f.errs, fmt.Errorf("%s: %w", p, err))
}

// read reads a configuration file; a missing one is no error.
func (f *finder) read(p string) []byte {
	fh, err := resolve.OpenFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		f.fail(p, err)
		return nil
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxConfigBytes+1))
	if err != nil {
		f.fail(p, err)
		return nil
	}
	if len(b) > MaxConfigBytes {
		f.fail(p, fmt.Errorf("over %d bytes", MaxConfigBytes))
		return nil
	}
	return b
}

func (f *finder) skills(client, scope, dir string) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		if st, err := os.Stat(filepath.Join(p, "SKILL.md")); err == nil && st.Mode().IsRegular() {
			f.out = append(f.out, Artifact{Client: client, Scope: scope, Kind: "skill", Name: e.Name(), Target: p, Config: dir})
		}
	}
}

func (f *finder) agents(client, scope, dir string) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".md") && e.Type().IsRegular() {
			f.out = append(f.out, Artifact{Client: client, Scope: scope, Kind: "agent", Name: strings.TrimSuffix(e.Name(), ".md"),
				Target: filepath.Join(dir, e.Name()), Note: "a single agent file", Config: dir})
		}
	}
}

// plugins are the directories with a .claude-plugin/plugin.json under the
// plugins directory (marketplaces and their caches), at most four deep.
func (f *finder) plugins(dir string) {
	seen := map[string]bool{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && strings.Count(rel, string(filepath.Separator)) > 4 {
			return filepath.SkipDir
		}
		if d.Name() == "plugin.json" && filepath.Base(filepath.Dir(p)) == ".claude-plugin" {
			root := filepath.Dir(filepath.Dir(p))
			if !seen[root] {
				seen[root] = true
				f.out = append(f.out, Artifact{Client: "claude-code", Scope: "user", Kind: "plugin", Name: filepath.Base(root), Target: root, Config: dir})
			}
		}
		return nil
	})
}

// hooks lists the commands a settings file runs on events.
func (f *finder) hooks(client, scope, p string) {
	b := f.read(p)
	if b == nil {
		return
	}
	var s struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		f.fail(p, err)
		return
	}
	for event, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Command == "" {
					continue
				}
				f.out = append(f.out, Artifact{Client: client, Scope: scope, Kind: "hook", Name: event, Command: []string{h.Command},
					Note: "a hook command runs on every " + event + "; attest evaluates artifacts, not single commands", Config: p})
			}
		}
	}
}

// server is an MCP server entry as the clients write it.
type server struct {
	Command   string            `json:"command" toml:"command"`
	Args      []string          `json:"args" toml:"args"`
	URL       string            `json:"url" toml:"url"`
	ServerURL string            `json:"serverUrl"`
	HTTPURL   string            `json:"httpUrl"`
	Type      string            `json:"type"`
	Env       map[string]string `json:"env" toml:"env"`
}

func (f *finder) mcpJSON(client, scope, p, key string) {
	b := f.read(p)
	if b == nil {
		return
	}
	raw, err := serversOf(b, key)
	if err != nil {
		f.fail(p, err)
		return
	}
	f.servers(client, scope, p, raw)
}

// serversOf is the server map under key in a JSON (with comments) file.
func serversOf(b []byte, key string) (json.RawMessage, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(jsoncStrip(b), &doc); err != nil {
		return nil, err
	}
	return doc[key], nil
}

func (f *finder) servers(client, scope, p string, raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	var ss map[string]server
	if err := json.Unmarshal(raw, &ss); err != nil {
		f.fail(p, err)
		return
	}
	names := make([]string, 0, len(ss))
	for n := range ss {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f.out = append(f.out, describe(client, scope, p, n, ss[n]))
	}
}

// claudeJSON reads ~/.claude.json: user servers, and each project's.
func (f *finder) claudeJSON(p string) {
	b := f.read(p)
	if b == nil {
		return
	}
	var doc struct {
		MCPServers json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		f.fail(p, err)
		return
	}
	f.servers("claude-code", "user", p, doc.MCPServers)
	if proj, ok := doc.Projects[f.env.Project]; ok {
		f.servers("claude-code", "project", p, proj.MCPServers)
	}
}

func (f *finder) codex(p string) {
	b := f.read(p)
	if b == nil {
		return
	}
	var doc struct {
		MCPServers map[string]server `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(b, &doc); err != nil {
		f.fail(p, err)
		return
	}
	names := make([]string, 0, len(doc.MCPServers))
	for n := range doc.MCPServers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f.out = append(f.out, describe("codex", "user", p, n, doc.MCPServers[n]))
	}
}

// Compiled on first use: every process links this package, few list the
// installed servers.
var (
	npmSpec = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*(@[\w.^~<>=*-]+)?$`)
	})
	pypiSpec = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][\w.-]*(==[\w.]+)?$`) })
	scriptEx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.(m?js|cjs|ts|py)$`) })
)

// describe says how an MCP server can be evaluated.
func describe(client, scope, p, name string, s server) Artifact {
	a := Artifact{Client: client, Scope: scope, Kind: "mcp", Name: name, Config: p}
	if s.Command != "" {
		a.Command = append([]string{s.Command}, s.Args...)
	}
	for _, u := range []string{s.URL, s.ServerURL, s.HTTPURL} {
		if u != "" {
			a.URL = u
			a.Note = "a remote server: attest cannot read its code (run attest run --surface on a captured tools/list)"
			return a
		}
	}
	cmd := filepath.Base(s.Command)
	var args []string
	for _, x := range s.Args {
		if !strings.HasPrefix(x, "-") {
			args = append(args, x)
		}
	}
	switch {
	case cmd == "npx" || cmd == "bunx" || cmd == "pnpx":
		if len(args) > 0 && npmSpec().MatchString(args[0]) {
			pkg := args[0]
			if !strings.Contains(strings.TrimPrefix(pkg, "@"), "@") {
				a.Note = "no version pinned: the latest is fetched, which may not be what the client runs"
			}
			a.Target = "npm:" + pkg
			return a
		}
	case cmd == "uvx" || cmd == "pipx":
		if len(args) > 0 && pypiSpec().MatchString(args[0]) {
			if !strings.Contains(args[0], "==") {
				a.Note = "no version pinned: the latest is fetched, which may not be what the client runs"
			}
			a.Target = "pypi:" + args[0]
			return a
		}
	case cmd == "node" || cmd == "python" || cmd == "python3" || cmd == "deno" || cmd == "bun" || cmd == "tsx" || cmd == "uv":
		for _, x := range args {
			if scriptEx().MatchString(x) && filepath.IsAbs(x) {
				a.Target = projectRoot(filepath.Dir(x))
				return a
			}
		}
	case cmd == "docker" || cmd == "podman":
		a.Note = "a container image: attest evaluates source, not images"
		return a
	case filepath.IsAbs(s.Command):
		a.Target = projectRoot(filepath.Dir(s.Command))
		a.Note = "a local executable: its directory is evaluated"
		return a
	}
	if a.Note == "" {
		a.Note = "not resolvable to source (launcher " + cmd + ")"
	}
	return a
}

// projectRoot is the nearest directory at or above dir with a package
// manifest, or dir.
func projectRoot(dir string) string {
	for d, i := dir, 0; i < 4; d, i = filepath.Dir(d), i+1 {
		for _, m := range []string{"package.json", "pyproject.toml", "go.mod", "setup.py", "Cargo.toml"} {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return dir
}

// jsoncStrip removes // and /* */ comments and trailing commas outside
// strings (VS Code's settings files are JSON with comments).
func jsoncStrip(b []byte) []byte {
	return dropTrailingCommas(dropComments(b))
}

// dropComments removes comments outside strings.
func dropComments(b []byte) []byte {
	var out bytes.Buffer
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			out.WriteByte(c)
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out.WriteByte(c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
			out.WriteByte(' ')
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

// dropTrailingCommas removes a comma before a closing bracket, outside
// strings.
func dropTrailingCommas(b []byte) []byte {
	var out bytes.Buffer
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}
