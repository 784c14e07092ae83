package resolve

import (
	"fmt"
	"strings"
)

// Kind is what an artifact is.
type Kind string

const (
	KindSkill  Kind = "skill"
	KindMCP    Kind = "mcp"
	KindAgent  Kind = "agent"
	KindPlugin Kind = "plugin"
)

// Kinds lists every kind, in display order.
var Kinds = []Kind{KindSkill, KindMCP, KindAgent, KindPlugin}

// Form is the shape an artifact of its kind takes. Most are packages:
// source with the manifests that declare it. An MCP artifact may instead
// be a captured surface evaluated alone, or an MCP client configuration
// whose server entries are launch specs. Checks that judge a package
// (integrity: manifests, names, versions, entries) do not apply to the
// other forms unless they say they judge them.
type Form string

const (
	FormPackage      Form = "package"
	FormSurface      Form = "surface"       // attest run --surface FILE: the snapshot is the artifact
	FormClientConfig Form = "client-config" // an MCP client configuration and no server beside it
)

// ParseKind parses a kind name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == strings.ToLower(strings.TrimSpace(s)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q: want one of skill, mcp, agent, plugin", s)
}
