package nodownloadandrun

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// prerequisites finds documents that tell their reader to download and
// install software from a web address whose host is nobody the artifact
// works with: not a toolchain installer, not a package registry or forge,
// not the home its manifests name, and named for nothing the artifact
// mentions anywhere but the download step itself. A prerequisite that the
// artifact never uses is what a fake "install our CLI first" lure looks
// like; a real one (Docker, a vendor's CLI) is named where it is used.
func prerequisites(in *checks.Input, set *facts.Set) []checks.Evidence {
	var out []checks.Evidence
	for _, s := range set.Sinks {
		if s.Kind != facts.ModelInstruction || s.Instr == nil || s.Instr.Family != "remote-install" || s.Instr.Dest == "" {
			continue
		}
		if !query.Stands(s.Ctx) || !query.ModelRead(s.Ctx) {
			continue
		}
		u := s.Instr.Dest
		if query.VendorInstaller(set.Intent, u) || vocab.HostLabels(u).Has("registry") || vocab.HostLabels(u).Has("installer") {
			continue
		}
		names := hostNames(u)
		if len(names) == 0 || namedElsewhere(in.Subject, names, s.At) {
			continue
		}
		_, host, _, _ := vocab.SplitURL(u)
		out = append(out, query.SinkEvidence(s, fmt.Sprintf(
			"tells its reader to download and install software from %s, a host that is not its vendor's and is named for nothing the artifact uses (%q)",
			host, s.Instr.Phrase)))
	}
	return out
}

// generic are host labels that name a service's role, not a product.
var generic = map[string]bool{"www": true, "docs": true, "doc": true, "get": true, "download": true, "downloads": true, "dl": true,
	"install": true, "releases": true, "release": true, "cdn": true, "static": true, "app": true, "api": true, "cli": true, "web": true,
	"site": true, "home": true, "setup": true, "files": true, "assets": true}

// hostNames are the words a host is named for: its labels but the last
// (the top-level domain) and the generic ones.
func hostNames(u string) []string {
	_, host, _, ok := vocab.SplitURL(u)
	if !ok {
		return nil
	}
	ls := strings.Split(host, ".")
	var out []string
	for _, l := range ls[:len(ls)-1] {
		if len(l) >= 3 && !generic[l] {
			out = append(out, l)
		}
	}
	return out
}

var anyURL = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"'` + "`" + `)\]]+`)

// namedElsewhere reports whether any of the words appears, as a word and
// outside a web address, in the artifact's text away from the lines of
// the download step (the two before it, where the prerequisite is named,
// and the one after).
func namedElsewhere(s *resolve.Subject, words []string, at facts.Span) bool {
	alts := make([]string, len(words))
	for i, w := range words {
		alts[i] = regexp.QuoteMeta(w)
	}
	re := regexp.MustCompile(`(?i)(?:^|[^a-z0-9_])(?:` + strings.Join(alts, "|") + `)(?:$|[^a-z0-9_])`)
	for f := range files.Scan(s) {
		if !f.Scanned || !files.IsText(f) {
			continue
		}
		for i, line := range strings.Split(string(f.Content), "\n") {
			if f.Path == at.Path && i+1 >= at.Line-2 && i+1 <= at.Line+1 {
				continue
			}
			if re.MatchString(anyURL.ReplaceAllString(line, " ")) {
				return true
			}
		}
	}
	return false
}
