package nodownloadandrun

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
)

// indexFlags name where every package of the command comes from: the
// index replaces the registry.
var indexFlags = map[string]bool{"-i": true, "--index-url": true, "--registry": true, "--from": true, "--source": true, "--index": true}

// extraFlags add a source beside the registry: a name both serve may come
// from either (dependency confusion), a concern rather than a finding.
var extraFlags = map[string]bool{"--extra-index-url": true, "--find-links": true}

// runners fetch one package and run it with the rest of the words.
var runners = map[string]bool{"npx": true, "bunx": true, "pnpx": true, "uvx": true, "pipx.run": true, "pnpm.dlx": true, "yarn.dlx": true}

// offRegistry judges one package install: a package fetched from an
// archive, a repository or an index on a host that is no package registry
// or forge, nor the artifact's own home, runs its build and install
// scripts unreviewed, as a download piped to a shell does.
func offRegistry(intent facts.Intent, s facts.Sink) (checks.Status, checks.Evidence) {
	status, src, how := checks.Pass, "", ""
	consider := func(u string, st checks.Status, what string) {
		if status == checks.Fail || !remoteSource(intent, u) {
			return
		}
		if st == checks.Fail || status == checks.Pass {
			status, src, how = st, u, what
		}
	}
	for i := 0; i < len(s.Args); i++ {
		a := s.Args[i]
		switch {
		case indexFlags[a] || extraFlags[a]:
			if i+1 < len(s.Args) {
				st := checks.Fail
				if extraFlags[a] {
					st = checks.Warn
				}
				consider(s.Args[i+1], st, "the package index "+a)
				i++
			}
		case strings.HasPrefix(a, "-"):
			if a == "--trusted-host" && i+1 < len(s.Args) {
				i++ // a host name, not a package
			}
		default:
			consider(a, checks.Fail, "an archive or repository URL")
			if runners[strings.ReplaceAll(s.API, " ", ".")] {
				// npx PKG ARGS…: the words after the package are the
				// program's arguments (a server's URL, a connection
				// string), not more packages
				i = len(s.Args)
			}
		}
	}
	if status == checks.Pass {
		return status, checks.Evidence{}
	}
	ev := query.SinkEvidence(s, fmt.Sprintf("%s installs a package from %s (%s), outside the package registries and the artifact's own host: its build and install scripts run unreviewed", s.API, src, how))
	if status == checks.Warn {
		ev.Message += "; an extra index beside the registry can shadow a package of the same name"
	}
	return status, ev
}

// remoteSource reports a package source on a remote host that is no
// registry, forge or toolchain installer, nor the artifact's home.
func remoteSource(intent facts.Intent, u string) bool {
	u = strings.Trim(u, `"'`)
	for _, vcs := range []string{"git+", "hg+", "svn+", "bzr+"} {
		u = strings.TrimPrefix(u, vcs)
	}
	if _, _, _, ok := vocab.SplitURL(u); !ok || !strings.Contains(u, "://") {
		return false // a name, a path, a requirements file, a file:// URL
	}
	if query.Loopback(u) {
		return false
	}
	ls := vocab.HostLabels(u)
	if ls.Has("registry") || ls.Has("installer") {
		return false
	}
	return !query.VendorInstaller(intent, u)
}
