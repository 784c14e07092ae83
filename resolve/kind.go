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

// ParseKind parses a kind name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == strings.ToLower(strings.TrimSpace(s)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q: want one of skill, mcp, agent, plugin", s)
}
