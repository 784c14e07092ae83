package mcpconfigsafe

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-config-safe.
var Check = &checks.Check{
	ID:          "mcp-config-safe",
	Version:     "1.2.0",
	Title:       "MCP launch specs hand secrets only to pinned servers of their provider",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// The launch and remote sinks the analysis model gives a client
// configuration's server entries.
const (
	apiLaunch = "mcp-launch"
	apiRemote = "mcp-remote"
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	entries := 0
	for _, sk := range set.Sinks {
		if sk.API != apiLaunch && !(sk.API == apiRemote && sk.Kind == facts.NetConnect) {
			continue
		}
		entries++
		if sk.API == apiRemote && insecure(sk.Dest) && !secretTo(set, sk) {
			warns = append(warns, query.SinkEvidence(sk, fmt.Sprintf("reaches the remote server %s over plain http: anyone on the way can rewrite its tools and results", sk.Dest)))
		}
	}
	if entries == 0 {
		return checks.NotApplicable("no MCP server entries"), nil
	}
	for _, f := range set.Flows {
		if f.From.Label != facts.SecretEnv || f.To.API != apiLaunch && f.To.API != apiRemote || !query.Stands(f.To.Ctx) {
			continue
		}
		status, why := judge(f)
		ev := query.FlowEvidence(f, "is handed to")
		ev.Message += ": " + why
		switch status {
		case checks.Fail:
			fails = append(fails, ev)
		case checks.Warn:
			warns = append(warns, ev)
		}
	}
	return query.Outcome(in.Subject, fails, warns, fmt.Sprintf("%s: no secret goes to an unpinned or foreign server, no remote server over plain http",
		checks.Plural(entries, "server entry"))), nil
}

// secretTo reports whether a secret flows to the sink.
func secretTo(set *facts.Set, sk facts.Sink) bool {
	for _, f := range set.Flows {
		if f.To.API == sk.API && f.To.At.Path == sk.At.Path && f.To.At.Line == sk.At.Line && f.From.Label == facts.SecretEnv {
			return true
		}
	}
	return false
}

// judge decides one secret handed to a server entry.
func judge(f facts.Flow) (checks.Status, string) {
	p := vocab.SecretProvider(f.From.What)
	provider, words := p.Name, p.Servers
	if f.To.API == apiRemote {
		dest := f.To.Dest
		switch {
		case query.Loopback(dest):
			return checks.Pass, ""
		case insecure(dest):
			return checks.Fail, "sent in clear over plain http"
		case query.Hostile(f.To):
			return checks.Fail, "sent to a " + strings.Join(f.To.DestLabels, ", ") + " host"
		case provider != "" && !names(hostOf(dest), words):
			return checks.Warn, fmt.Sprintf("a secret issued by %s sent to a host that is not %s's", provider, provider)
		}
		return checks.Pass, ""
	}
	o := origin(f.To.Args)
	if o.name == "" {
		return checks.Pass, "" // a local command: the user's own code
	}
	own := provider != "" && names(o.name, words)
	switch {
	case provider != "" && !own && !o.pinned && p.Account:
		return checks.Fail, fmt.Sprintf("a secret issued by %s given to %s, which is not %s's and is fetched %s at every start: whatever is published next runs with it",
			provider, o.name, provider, o.how)
	case provider != "" && !own && !o.pinned:
		return checks.Warn, fmt.Sprintf("a secret issued by %s given to %s, which is not %s's, fetched %s at every start without a pinned version", provider, o.name, provider, o.how)
	case provider != "" && !own:
		return checks.Warn, fmt.Sprintf("a secret issued by %s given to %s, which is not %s's (pinned: review that version)", provider, o.name, provider)
	case !o.pinned:
		return checks.Warn, fmt.Sprintf("given to %s, fetched %s at every start without a pinned version", o.name, o.how)
	}
	return checks.Pass, ""
}

// fetched says what a launch fetches: the package or image name, how, and
// whether the entry pins it.
type fetched struct {
	name, how string
	pinned    bool
}

// origin reads a launch's argv.
func origin(argv []string) fetched {
	if len(argv) == 0 {
		return fetched{}
	}
	if d, ok := deps.Launched(argv[0], argv[1:]); ok {
		return fetched{name: d.Name, how: "by " + d.Group, pinned: exactVersion(d.Ecosystem, d.Spec)}
	}
	switch path.Base(argv[0]) {
	case "docker", "podman":
		if img := image(argv[1:]); img != "" {
			name, pinned := imageRef(img)
			return fetched{name: name, how: "by " + path.Base(argv[0]), pinned: pinned}
		}
	}
	return fetched{}
}

// exactVersion reports a version requirement naming one release.
func exactVersion(eco, spec string) bool {
	spec = strings.TrimSpace(spec)
	if eco == deps.PyPI {
		v, ok := strings.CutPrefix(spec, "==")
		return ok && !strings.ContainsAny(v, "*,<>!~ ")
	}
	if spec == "" || spec[0] < '0' || spec[0] > '9' {
		return false // a range, a dist-tag such as latest, or nothing
	}
	return strings.Count(spec, ".") >= 2 && !strings.ContainsAny(spec, "^~<>=*xX| ")
}

// runValueFlags are docker and podman run options that take a value.
var runValueFlags = map[string]bool{"-e": true, "--env": true, "-v": true, "--volume": true, "-p": true, "--publish": true,
	"--name": true, "--network": true, "--net": true, "--mount": true, "-w": true, "--workdir": true, "-u": true, "--user": true,
	"--entrypoint": true, "--env-file": true, "--platform": true, "--pull": true, "-l": true, "--label": true, "--cpus": true,
	"-m": true, "--memory": true, "--add-host": true, "--cap-add": true, "--cap-drop": true, "--device": true, "-h": true,
	"--hostname": true, "--security-opt": true, "--tmpfs": true, "--ulimit": true}

// image finds the image of a `run` in docker or podman arguments.
func image(args []string) string {
	i := 0
	for i < len(args) && args[i] != "run" {
		i++
	}
	for i++; i < len(args); i++ {
		a := args[i]
		switch {
		case runValueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// imageRef splits an image reference into its name and whether a digest or
// a version tag pins it.
func imageRef(ref string) (string, bool) {
	if name, _, ok := strings.Cut(ref, "@sha256:"); ok {
		return name, true
	}
	slash := strings.LastIndex(ref, "/")
	if c := strings.LastIndex(ref, ":"); c > slash {
		tag := ref[c+1:]
		return ref[:c], tag != "latest" && tag != "" && (tag[0] >= '0' && tag[0] <= '9' || tag[0] == 'v' && len(tag) > 1 && tag[1] >= '0' && tag[1] <= '9')
	}
	return ref, false
}

// names reports whether a package, image or host name carries one of a
// provider's words, as a token of it (aws in awslabs.aws-api-mcp-server,
// github in ghcr.io/github/github-mcp-server).
func names(name string, words []string) bool {
	name = strings.ToLower(name)
	tokens := strings.FieldsFunc(name, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') })
	for _, w := range words {
		if w == "" {
			continue
		}
		for _, t := range tokens {
			if t == w || strings.HasPrefix(t, w) && len(w) >= 3 {
				return true
			}
		}
		if strings.Contains(w, "-") && strings.Contains(name, w) {
			return true
		}
	}
	return false
}

func insecure(u string) bool {
	scheme, _, _, ok := vocab.SplitURL(u)
	return ok && strings.EqualFold(scheme, "http") && !query.Loopback(u)
}

func hostOf(u string) string {
	_, h, _, _ := vocab.SplitURL(u)
	return h
}
