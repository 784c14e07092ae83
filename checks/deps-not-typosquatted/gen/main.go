// Command gen writes the popularity data of deps-not-typosquatted from a
// dated snapshot of public download statistics. It is run by hand, never in
// CI:
//
//	go run ./checks/deps-not-typosquatted/gen \
//	    -npm counts.json -npm-source 'download-counts 2.20260301.0' -npm-date 2026-03-01 \
//	    -pypi top-pypi-packages.min.json -out checks/deps-not-typosquatted
//
// counts.json is the npm package download-counts (monthly downloads of
// every npm package); top-pypi-packages.min.json is the 30-day download
// ranking of the 15,000 most downloaded PyPI projects (hugovk/top-pypi-packages).
// Regenerating the data bumps the check's version.
package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	typo "github.com/metahub-ai/attest/checks/deps-not-typosquatted"
)

// version is the generator's version, written into every file.
const version = 1

const (
	top          = 5000
	npmThreshold = 50_000 // downloads a month that make an npm name popular
	pypiRanked   = 15_000
)

func main() {
	npmPath := flag.String("npm", "", "download-counts counts.json")
	npmSource := flag.String("npm-source", "", "name and version of the npm snapshot")
	npmDate := flag.String("npm-date", "", "date of the npm snapshot")
	pypiPath := flag.String("pypi", "", "top-pypi-packages.min.json")
	out := flag.String("out", ".", "directory to write")
	flag.Parse()
	if *npmPath == "" || *pypiPath == "" || *npmSource == "" || *npmDate == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*npmPath, *npmSource, *npmDate, *pypiPath, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(npmPath, npmSource, npmDate, pypiPath, out string) error {
	raw, err := os.ReadFile(npmPath)
	if err != nil {
		return err
	}
	var counts map[string]int64
	if err := json.Unmarshal(raw, &counts); err != nil {
		return fmt.Errorf("%s: %w", npmPath, err)
	}
	all := make([]typo.Popular, 0, len(counts))
	for n, c := range counts {
		all = append(all, typo.Popular{Name: n, Pop: c})
	}
	sortPop(all)
	if all[top-1].Pop < 100*npmThreshold {
		return fmt.Errorf("npm: the least popular target has %d downloads, under 100 × %d: rule 2 would not hold", all[top-1].Pop, npmThreshold)
	}
	var cands []string
	for _, p := range all[top:] {
		if p.Pop < npmThreshold {
			break
		}
		cands = append(cands, p.Name)
	}
	head := fmt.Sprintf("# npm downloads a month, snapshot %s (%s)\n# input sha256 %s\n# generator %d\n", npmDate, npmSource, digest(raw), version)
	if err := write(out, "npm", typo.NPM, all[:top], cands, head); err != nil {
		return err
	}

	raw, err = os.ReadFile(pypiPath)
	if err != nil {
		return err
	}
	var pypi struct {
		LastUpdate string `json:"last_update"`
		Rows       []struct {
			Count   int64  `json:"download_count"`
			Project string `json:"project"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(raw, &pypi); err != nil {
		return fmt.Errorf("%s: %w", pypiPath, err)
	}
	all = all[:0]
	for _, r := range pypi.Rows {
		all = append(all, typo.Popular{Name: r.Project, Pop: r.Count})
	}
	sortPop(all)
	if len(all) < pypiRanked {
		return fmt.Errorf("pypi: %d ranked projects, want %d", len(all), pypiRanked)
	}
	cands = cands[:0]
	for _, p := range all[top:pypiRanked] {
		cands = append(cands, p.Name)
	}
	date, _, _ := strings.Cut(pypi.LastUpdate, " ")
	head = fmt.Sprintf("# PyPI downloads over 30 days, snapshot %s (top-pypi-packages, %d ranked)\n# input sha256 %s\n# generator %d\n", date, pypiRanked, digest(raw), version)
	return write(out, "pypi", typo.PyPI, all[:top], cands, head)
}

func sortPop(p []typo.Popular) {
	slices.SortFunc(p, func(a, b typo.Popular) int {
		return cmp.Or(cmp.Compare(b.Pop, a.Pop), cmp.Compare(a.Name, b.Name))
	})
}

// write writes the popular list (normalised names), its key index and
// the names among cands that a rule would flag against it.
func write(dir, prefix string, eco typo.Ecosystem, popular []typo.Popular, cands []string, head string) error {
	seen := map[string]bool{}
	var norm []typo.Popular
	for _, p := range popular {
		n := typo.Normalize(eco, p.Name)
		if !seen[n] {
			seen[n] = true
			norm = append(norm, typo.Popular{Name: n, Pop: p.Pop})
		}
	}
	var b strings.Builder
	b.WriteString(head)
	for _, p := range norm {
		fmt.Fprintf(&b, "%s\t%d\n", p.Name, p.Pop)
	}
	popText := b.String()
	keys := head + "# key TAB rule TAB rank: the shapes of each popular name that the rules compare\n" + typo.BuildKeys(norm)
	d := typo.NewData(eco, popText, "", keys)
	var nb []string
	for _, c := range cands {
		n := typo.Normalize(eco, c)
		if d.Known(n) {
			continue
		}
		if _, ok := d.Resembles(n); ok {
			nb = append(nb, n)
		}
	}
	slices.Sort(nb)
	nb = slices.Compact(nb)
	b.Reset()
	b.WriteString(head)
	b.WriteString("# popular names that a rule would flag against a more popular one; never flagged\n")
	for _, n := range nb {
		b.WriteString(n + "\n")
	}
	fmt.Fprintf(os.Stderr, "%s: %d popular, %d candidates, %d neighbours\n", prefix, len(norm), len(cands), len(nb))
	for name, text := range map[string]string{"-popular.tsv": popText, "-keys.txt": keys, "-neighbours.txt": b.String()} {
		if err := os.WriteFile(filepath.Join(dir, prefix+name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
