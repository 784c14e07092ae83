package nosensitivefiles

import (
	"bytes"
	"context"
	"fmt"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-sensitive-files.
var Check = &checks.Check{
	ID:          "no-sensitive-files",
	Version:     "1.1.0",
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
	keyFile     // PEM and friends: content decides
	keyStore    // binary key stores and password databases: always fail
	configFile  // token/password settings
	historyFile // shell history
)

var envSafeSuffixes = []string{".example", ".sample", ".template", ".dist", ".defaults"}

func classify(p string) class {
	base := path.Base(p)
	lower := strings.ToLower(base)
	switch {
	case lower == ".env" || strings.HasPrefix(lower, ".env."):
		for _, s := range envSafeSuffixes {
			if strings.HasSuffix(lower, s) {
				return notSensitive
			}
		}
		return envFile
	case lower == "id_rsa" || lower == "id_dsa" || lower == "id_ecdsa" || lower == "id_ed25519":
		return keyFile
	}
	switch path.Ext(lower) {
	case ".pem", ".key", ".ppk":
		return keyFile
	case ".p12", ".pfx", ".jks", ".keystore", ".kdbx":
		return keyStore
	case ".tfstate":
		return configFile
	}
	switch lower {
	case ".npmrc", ".pypirc", ".netrc", "_netrc", ".git-credentials", "kubeconfig", "credentials", "credentials.json", ".htpasswd":
		return configFile
	case ".bash_history", ".zsh_history", ".sh_history", ".history", "fish_history", ".psql_history", ".mysql_history", ".node_repl_history", ".python_history":
		return historyFile
	}
	if strings.HasPrefix(lower, "service-account") && strings.HasSuffix(lower, ".json") {
		return configFile
	}
	if strings.HasSuffix(p, ".docker/config.json") || strings.HasSuffix(p, ".kube/config") || strings.HasSuffix(p, ".aws/credentials") || strings.HasSuffix(p, ".aws/config") {
		return configFile
	}
	return notSensitive
}

var (
	privateKeyRe = lex.Lazy(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)
	// key = value, key: value, "key": "value", export KEY=value
	assignRe   = lex.Lazy(`(?m)^[ \t]*(?:export[ \t]+)?["']?([A-Za-z0-9_.\-/:]+)["']?[ \t]*[:=][ \t]*(.*?)[ \t,]*$`)
	secretKey  = lex.Lazy(`(?i)(token|secret|passw|pwd|api[_-]?key|apikey|auth|credential|private[_-]?key|access[_-]?key|client[_-]?key|session|cookie)`)
	inlineCred = lex.Lazy(`[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)
	netrcPass  = lex.Lazy(`(?m)\bpassword\s+(\S+)`)
	htpasswdRe = lex.Lazy(`(?m)^[^:#\s]+:\S+`)
	wordRe     = lex.Lazy(`[A-Za-z]+`)
	dockerAuth = lex.Lazy(`"auth"\s*:\s*"[^"]+"`)
	placeWords = map[string]bool{"example": true, "sample": true, "placeholder": true, "your": true, "changeme": true,
		"dummy": true, "fake": true, "redacted": true, "test": true, "xxx": true, "todo": true, "none": true, "null": true}
)

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
func judge(c class, p string, data []byte) (fail, warn string) {
	if privateKeyRe.Re().Match(data) {
		return "holds a private key", ""
	}
	switch c {
	case keyStore:
		if len(bytes.TrimSpace(data)) == 0 {
			return "", ""
		}
		return "is a key store or password database", ""
	case keyFile:
		return "", ""
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
	base := strings.ToLower(path.Base(p))
	if base == ".netrc" || base == "_netrc" {
		for _, m := range netrcPass.Re().FindAllSubmatch(data, -1) {
			if !placeholder(string(m[1])) {
				return "holds a machine password", ""
			}
		}
	}
	if base == ".htpasswd" && htpasswdRe.Re().Match(data) {
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
		if secretKey.Re().MatchString(key) && !placeholder(val) && !strings.HasPrefix(strings.TrimSpace(val), "{") && !strings.HasPrefix(strings.TrimSpace(val), "[") {
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
		fail, warn := judge(c, f.Path, f.Content)
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
