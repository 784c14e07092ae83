package prose

import (
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
)

// Cheap tests of whether a text can hold a match of one of the
// producer's token patterns at all: each pattern runs on every sentence,
// and most sentences hold no path, URL or file name.

// mayHoldPath: pathToken needs ~, $ or % before a separator, a slash, or
// a dot before a name.
func mayHoldPath(s string) bool {
	if strings.ContainsAny(s, "/~$%") {
		return true
	}
	for i := strings.IndexByte(s, '.'); i >= 0; {
		if i+1 < len(s) && (isWordByte(s[i+1]) || s[i+1] == '-') {
			return true
		}
		j := strings.IndexByte(s[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// mayHoldURL: urlToken needs a scheme's "://".
func mayHoldURL(s string) bool { return strings.Contains(s, "://") }

// mayHoldDataFile: obeyRe names a JSON or YAML file.
func mayHoldDataFile(s string) bool {
	return lex.ContainsFold(s, ".json") || lex.ContainsFold(s, ".yaml") || lex.ContainsFold(s, ".yml")
}

// tellExts are the file extensions tellRe names.
var tellExts = map[string]bool{"json": true, "yaml": true, "yml": true, "toml": true, "ini": true, "cfg": true, "conf": true, "sh": true, "bash": true, "py": true, "js": true, "mjs": true, "ts": true, "ps1": true, "txt": true, "md": true}

// mayHoldToldFile: tellRe names a file whose extension, the whole word
// after a dot, is one of tellExts.
func mayHoldToldFile(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '.' {
			continue
		}
		j := i + 1
		for j < len(s) && isWordByte(s[j]) && j-i <= 5 {
			j++
		}
		if j < len(s) && isWordByte(s[j]) {
			continue // longer than any of them
		}
		if tellExts[strings.ToLower(s[i+1:j])] {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
