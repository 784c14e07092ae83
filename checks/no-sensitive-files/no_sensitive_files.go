package nosensitivefiles

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-sensitive-files.
var Check = &checks.Check{
	ID:          "no-sensitive-files",
	Version:     "2.0.0",
	Title:       "No credential files shipped",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

type class int

const (
	notSensitive class = iota
	envFile
	credFile    // a credential store, keychain, wallet or agent configuration: content decides
	historyFile // shell history
)

// classify says what a file is by what the vocabulary says its path is.
func classify(p string) class {
	labels := vocab.PathLabels(p)
	switch {
	case labels.Has("public"):
		return notSensitive // a public key or known_hosts is published by design
	case labels.Has("env-file"):
		return envFile
	case labels.Has("history"):
		return historyFile
	case labels.Has("credential-store"), labels.Has("keychain"), labels.Has("wallet"), labels.Has("agent-config"):
		return credFile
	}
	return notSensitive
}

var (
	privateKeyRe = lex.Lazy(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)
	// key = value, key: value, "key": "value", export KEY=value
	assignRe   = lex.Lazy(`(?m)^[ \t]*(?:export[ \t]+)?["']?([A-Za-z0-9_.\-/:]+)["']?[ \t]*[:=][ \t]*(.*?)[ \t,]*$`)
	inlineCred = lex.Lazy(`[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)
	// a netrc line: machine HOST login USER password PASS
	netrcPass = lex.Lazy(`(?m)\bpassword\s+(\S+)`)
	// user:HASH in the crypt, bcrypt, apr1 and SHA shapes
	htpasswdRe = lex.Lazy(`(?m)^[^:#\s]+:(?:\$(?:apr1|2[aby]|1|5|6)\$|\{SHA\})\S+`)
	wordRe     = lex.Lazy(`[A-Za-z]+`)
	dockerAuth = lex.Lazy(`"auth"\s*:\s*"[^"]+"`)
	placeWords = map[string]bool{"example": true, "sample": true, "placeholder": true, "your": true, "changeme": true,
		"dummy": true, "fake": true, "redacted": true, "test": true, "xxx": true, "todo": true, "none": true, "null": true}
)

// secretName asks the vocabulary whether a settings key names a secret:
// the key is put in the environment variable's shape first (apiKey,
// api-key and api.key all read API_KEY).
func secretName(key string) bool {
	var b strings.Builder
	prevLower := false
	for _, r := range key {
		switch {
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte('_')
		case r == '-' || r == '.' || r == '/' || r == ':':
			r = '_'
		}
		b.WriteRune(r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return vocab.SecretEnv(b.String())
}

// placeholder judges a value by itself alone (CHECKS principle 3).
func placeholder(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	if v == "" || v == "true" || v == "false" {
		return true
	}
	if strings.HasPrefix(v, "${") || strings.HasPrefix(v, "$") && !strings.ContainsAny(v, " /") ||
		strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") || strings.HasPrefix(v, "{{") && strings.HasSuffix(v, "}}") ||
		strings.Contains(v, "%s") || strings.Contains(v, "xxxx") || strings.Contains(v, "XXXX") || strings.Contains(v, "***") {
		return true
	}
	if strings.Count(v, v[:1]) == len(v) {
		return true
	}
	for _, w := range wordRe.Re().FindAllString(v, -1) {
		if placeWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// judge returns a reason to fail, a reason to warn, or neither.
func judge(c class, data []byte) (fail, warn string) {
	if privateKeyRe.Re().Match(data) {
		return "holds a private key", ""
	}
	switch c {
	case credFile:
		if len(bytes.TrimSpace(data)) == 0 {
			return "", ""
		}
		if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			return "is a binary key store, keychain, wallet or password database", ""
		}
	case historyFile:
		if len(bytes.TrimSpace(data)) == 0 {
			return "", ""
		}
		if f := secretValues(data); f != "" {
			return "shell history " + f, ""
		}
		return "", "ships a shell history file"
	}
	if inlineCred.Re().Match(data) {
		return "holds a URL with an inline password", ""
	}
	if c == credFile {
		for _, m := range netrcPass.Re().FindAllSubmatch(data, -1) {
			if !placeholder(string(m[1])) {
				return "holds a machine password", ""
			}
		}
	}
	if htpasswdRe.Re().Match(data) {
		return "holds password hashes", ""
	}
	if bytes.Contains(data, []byte(`"auths"`)) && dockerAuth.Re().Match(data) {
		return "holds registry credentials (auths)", ""
	}
	if f := secretValues(data); f != "" {
		return f, ""
	}
	if c == envFile && hasValues(data) {
		return "", "ships an environment file with values; confirm none is a secret"
	}
	return "", ""
}

// secretValues finds a secret-named key assigned a real value.
func secretValues(data []byte) string {
	for _, m := range assignRe.Re().FindAllSubmatch(data, -1) {
		key, val := string(m[1]), string(m[2])
		if secretName(key) && !placeholder(val) && !strings.HasPrefix(strings.TrimSpace(val), "{") && !strings.HasPrefix(strings.TrimSpace(val), "[") {
			return fmt.Sprintf("assigns a value to %s", keyShape(key))
		}
	}
	return ""
}

// keyShape names a key without echoing anything that could be a secret.
func keyShape(key string) string {
	if len(key) > 40 {
		return "a secret-named key"
	}
	return fmt.Sprintf("%q", key)
}

func hasValues(data []byte) bool {
	for _, m := range assignRe.Re().FindAllSubmatch(data, -1) {
		if !placeholder(string(m[2])) {
			return true
		}
	}
	return false
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var fails, warns, unscanned []checks.Evidence
	candidates := 0
	for f := range files.Scan(in.Subject) {
		c := classify(f.Path)
		if c == notSensitive {
			continue
		}
		candidates++
		if !f.Scanned {
			unscanned = append(unscanned, checks.At(f.Path, 0, 0, "credential-named file too large to read"))
			continue
		}
		fail, warn := judge(c, f.Content)
		switch {
		case fail != "":
			fails = append(fails, checks.At(f.Path, 0, 0, fail))
		case warn != "":
			warns = append(warns, checks.At(f.Path, 0, 0, warn))
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s %s", fails[0].Path, fails[0].Message), append(fails, warns...)...), nil
	case len(unscanned) > 0:
		return checks.Skipped(fmt.Sprintf("%s could not be read within the scan limit", checks.Plural(len(unscanned), "credential-named file")), unscanned...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s %s", warns[0].Path, warns[0].Message), warns...), nil
	case candidates > 0:
		return checks.Passed(fmt.Sprintf("%s by name, none holds a credential", checks.Plural(candidates, "sensitive file"))), nil
	}
	return checks.Passed("no credential files"), nil
}
