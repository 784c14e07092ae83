package manifest

// Plugin is .claude-plugin/plugin.json.
type Plugin struct {
	Doc                                           *JSONDoc
	Name, Version, Description, License, Homepage *StringField
	Repository                                    *StringField
	// Components maps a component key (commands, agents, skills, hooks,
	// mcpServers, outputStyles) to the paths it declares. An inline object
	// (hooks or mcpServers written into the manifest) is recorded in Inline.
	Components map[string][]StringAt
	Inline     map[string]*JSON
}

// PluginComponentKeys are the manifest keys that name bundled components.
var PluginComponentKeys = []string{"commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers"}

// ParsePlugin parses plugin.json.
func ParsePlugin(data []byte) (*Plugin, error) {
	doc, err := parseObject(data, "plugin.json")
	if err != nil {
		return nil, err
	}
	r := doc.Root
	p := &Plugin{Doc: doc, Components: map[string][]StringAt{}, Inline: map[string]*JSON{}}
	p.Name = stringField(r.Get("name"))
	p.Version = stringField(r.Get("version"))
	p.Description = stringField(r.Get("description"))
	p.License = stringField(r.Get("license"))
	p.Homepage = stringField(r.Get("homepage"))
	p.Repository = stringOr(r.Get("repository"), "url")
	for _, k := range PluginComponentKeys {
		v := r.Get(k)
		if v == nil {
			continue
		}
		if v.Kind == JSONObject {
			p.Inline[k] = v
			continue
		}
		p.Components[k] = v.Strings()
	}
	return p, nil
}

// Hook is one hook command or prompt in a hooks configuration.
type Hook struct {
	Event   string
	Matcher string
	Type    string // command | prompt | ...
	Command string
	Prompt  string
	Pos     Pos
}

// Hooks is a hooks.json (or the "hooks" object of a settings file).
type Hooks struct {
	Doc   *JSONDoc
	Hooks []Hook
}

// ParseHooks parses a hooks configuration: {"hooks": {Event: [{matcher,
// hooks: [{type, command|prompt}]}]}} or the bare event map.
func ParseHooks(data []byte) (*Hooks, error) {
	doc, err := parseObject(data, "hooks configuration")
	if err != nil {
		return nil, err
	}
	r := doc.Root
	h := &Hooks{Doc: doc}
	events := r
	if inner := r.Get("hooks"); inner != nil && inner.Kind == JSONObject {
		events = inner
	}
	h.Hooks = HooksFrom(events)
	return h, nil
}

// HooksFrom reads the event map of a hooks configuration.
func HooksFrom(events *JSON) []Hook {
	var out []Hook
	if events == nil || events.Kind != JSONObject {
		return nil
	}
	for _, ev := range events.Members {
		if ev.Value.Kind != JSONArray {
			continue
		}
		for _, group := range ev.Value.Items {
			matcher, _ := group.Get("matcher").String()
			for _, hk := range group.Get("hooks").Items0() {
				t, _ := hk.Get("type").String()
				cmd, _ := hk.Get("command").String()
				prompt, _ := hk.Get("prompt").String()
				out = append(out, Hook{Event: ev.Key, Matcher: matcher, Type: t, Command: cmd, Prompt: prompt, Pos: hk.Pos})
			}
		}
	}
	return out
}

// Items0 returns array items, or nil for anything else.
func (v *JSON) Items0() []*JSON {
	if v == nil || v.Kind != JSONArray {
		return nil
	}
	return v.Items
}

// AgentJSON is agent.json.
type AgentJSON struct {
	Doc                                             *JSONDoc
	Name, Description, Version, Instructions, Entry *StringField
	License                                         *StringField
}

// ParseAgentJSON parses agent.json.
func ParseAgentJSON(data []byte) (*AgentJSON, error) {
	doc, err := parseObject(data, "agent.json")
	if err != nil {
		return nil, err
	}
	r := doc.Root
	a := &AgentJSON{Doc: doc}
	a.Name = stringField(r.Get("name"))
	a.Description = stringField(r.Get("description"))
	a.Version = stringField(r.Get("version"))
	a.Instructions = stringField(r.Get("instructions"))
	if a.Instructions == nil {
		a.Instructions = stringField(r.Get("system_prompt"))
	}
	a.Entry = stringField(r.Get("entry"))
	if a.Entry == nil {
		a.Entry = stringField(r.Get("main"))
	}
	a.License = stringField(r.Get("license"))
	return a, nil
}

// MCPServerSpec is one server of an .mcp.json or a plugin's mcpServers.
type MCPServerSpec struct {
	Name    string
	Command string
	Args    []string
	URL     string
	// Env is the environment the client starts the server with, and
	// Headers what it sends to a remote one, in file order.
	Env     []KeyValue
	Headers []KeyValue
	Pos     Pos
}

// KeyValue is one string member of an object, with its position.
type KeyValue struct {
	Key, Value string
	Pos        Pos
}

// MCPConfig is .mcp.json / mcp.json.
type MCPConfig struct {
	Doc     *JSONDoc
	Servers []MCPServerSpec
}

// ParseMCPConfig parses an MCP client configuration.
func ParseMCPConfig(data []byte) (*MCPConfig, error) {
	doc, err := parseObject(data, "MCP configuration")
	if err != nil {
		return nil, err
	}
	r := doc.Root
	servers := r.Get("mcpServers")
	if servers == nil {
		servers = r.Get("servers")
	}
	return &MCPConfig{Doc: doc, Servers: MCPServersFrom(servers)}, nil
}

// MCPServersFrom reads a {name: {command, args, url}} map.
func MCPServersFrom(servers *JSON) []MCPServerSpec {
	if servers == nil || servers.Kind != JSONObject {
		return nil
	}
	var out []MCPServerSpec
	for _, m := range servers.Members {
		s := MCPServerSpec{Name: m.Key, Pos: m.KeyPos}
		s.Command, _ = m.Value.Get("command").String()
		// url (Claude, Cursor, VS Code), serverUrl (Windsurf), httpUrl (Gemini CLI)
		for _, k := range []string{"url", "serverUrl", "httpUrl"} {
			if u, ok := m.Value.Get(k).String(); ok && s.URL == "" {
				s.URL = u
			}
		}
		for _, a := range m.Value.Get("args").Strings() {
			s.Args = append(s.Args, a.Value)
		}
		for _, k := range []string{"env", "headers"} {
			obj := m.Value.Get(k)
			if obj == nil || obj.Kind != JSONObject {
				continue
			}
			for _, e := range obj.Members {
				v, _ := e.Value.String()
				kv := KeyValue{Key: e.Key, Value: v, Pos: e.KeyPos}
				if k == "env" {
					s.Env = append(s.Env, kv)
				} else {
					s.Headers = append(s.Headers, kv)
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// ServerJSON is an MCP registry server.json.
type ServerJSON struct {
	Doc                        *JSONDoc
	Name, Version, Description *StringField
	Packages                   []ServerPackage
	Remotes                    []StringAt // remote URLs
}

// ServerPackage is one entry of server.json packages[].
type ServerPackage struct {
	RegistryType, Identifier, Version string
	Pos                               Pos
}

// ParseServerJSON parses server.json.
func ParseServerJSON(data []byte) (*ServerJSON, error) {
	doc, err := parseObject(data, "server.json")
	if err != nil {
		return nil, err
	}
	r := doc.Root
	s := &ServerJSON{Doc: doc}
	s.Name = stringField(r.Get("name"))
	s.Version = stringField(r.Get("version"))
	if s.Version == nil {
		s.Version = stringField(r.Path("version_detail.version"))
	}
	s.Description = stringField(r.Get("description"))
	for _, p := range r.Get("packages").Items0() {
		rt, _ := p.Get("registryType").String()
		if rt == "" {
			rt, _ = p.Get("registry_name").String()
		}
		id, _ := p.Get("identifier").String()
		if id == "" {
			id, _ = p.Get("name").String()
		}
		v, _ := p.Get("version").String()
		s.Packages = append(s.Packages, ServerPackage{RegistryType: rt, Identifier: id, Version: v, Pos: p.Pos})
	}
	for _, rm := range r.Get("remotes").Items0() {
		if u, ok := rm.Get("url").String(); ok {
			s.Remotes = append(s.Remotes, StringAt{Value: u, Pos: rm.Pos})
		}
	}
	return s, nil
}
