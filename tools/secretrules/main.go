// Command secretrules writes the secret rules of no-hardcoded-secrets
// (checks/no-hardcoded-secrets/rules.json) from the rule set gitleaks
// maintains, as versioned data. Run it by hand, never in CI:
//
//	cd tools/secretrules && go run . > ../../checks/no-hardcoded-secrets/rules.json
//
// Regenerating changes the check's verdicts on the same input, so bump the
// check's version in the same commit.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"sort"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
)

type allowlist struct {
	Condition   string   `toml:"condition" json:"condition,omitempty"`
	Regexes     []string `toml:"regexes" json:"regexes,omitempty"`
	RegexTarget string   `toml:"regexTarget" json:"regexTarget,omitempty"`
	StopWords   []string `toml:"stopwords" json:"stopwords,omitempty"`
	Paths       []string `toml:"paths" json:"-"`
}

type rule struct {
	ID          string      `toml:"id" json:"id"`
	Description string      `toml:"description" json:"description"`
	Regex       string      `toml:"regex" json:"regex"`
	SecretGroup int         `toml:"secretGroup" json:"secretGroup,omitempty"`
	Entropy     float64     `toml:"entropy" json:"entropy,omitempty"`
	Keywords    []string    `toml:"keywords" json:"keywords,omitempty"`
	Path        string      `toml:"path" json:"path,omitempty"`
	Allowlists  []allowlist `toml:"allowlists" json:"allowlists,omitempty"`
}

type file struct {
	Allowlist allowlist `toml:"allowlist"`
	Rules     []rule    `toml:"rules"`
}

type out struct {
	Source    string    `json:"source"`
	License   string    `json:"license"`
	SHA256    string    `json:"sha256"`
	Allowlist allowlist `json:"allowlist"`
	Rules     []rule    `json:"rules"`
}

func main() {
	var f file
	if err := toml.Unmarshal([]byte(config.DefaultConfig), &f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var kept []rule
	for _, r := range f.Rules {
		if r.Regex == "" {
			continue // path-only rules judge file names, which no-sensitive-files does
		}
		if _, err := regexp.Compile(r.Regex); err != nil {
			fmt.Fprintf(os.Stderr, "skipping %s: %v\n", r.ID, err)
			continue
		}
		kept = append(kept, r)
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].ID < kept[j].ID })
	version := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/zricethezav/gitleaks/v8" {
				version = d.Version
			}
		}
	}
	sum := sha256.Sum256([]byte(config.DefaultConfig))
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out{
		Source:    "github.com/zricethezav/gitleaks/v8@" + version + " config/gitleaks.toml",
		License:   "MIT, Copyright (c) 2019 Zachary Rice",
		SHA256:    hex.EncodeToString(sum[:]),
		Allowlist: f.Allowlist,
		Rules:     kept,
	}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
