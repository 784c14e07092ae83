package harness

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/metahub-ai/attest/resolve/manifest"
)

// Install says how an MCP server's dependencies are installed inside the
// sandbox before it starts, without running any install script.
type Install struct {
	// Script runs with /bin/sh in the sandbox; Dir is where the server
	// then starts, Env what it needs to find them.
	Script string
	Dir    string
	Env    []string
	// Hosts are reachable while the script runs, and only then.
	Hosts []string
	// Note says what was done, or refused, for the report.
	Note string
}

// Registries says where packages come from: the public registries unless
// NPM_CONFIG_REGISTRY or PIP_INDEX_URL name others.
type Registries struct{ NPM, PyPI string }

func hostsOf(u string, def ...string) []string {
	if x, err := url.Parse(u); err == nil && x.Hostname() != "" {
		return []string{x.Hostname()}
	}
	return def
}

// InstallFor reads how the server in dir declares its dependencies and
// rewrites launch to start from the installed copy. npm runs with
// --ignore-scripts; pip with --only-binary=:all:, which refuses a source
// distribution (building one runs its setup code): such a package is then
// missing, and the note says so.
func InstallFor(dir string, launch []string, reg Registries) (*Install, []string) {
	exists := func(p string) bool { _, err := os.Lstat(filepath.Join(dir, p)); return err == nil }
	if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && len(data) < 1<<20 && !exists("node_modules") {
		var pkg struct {
			Dependencies map[string]string `json:"dependencies"`
		}
		if json.Unmarshal(data, &pkg) == nil && len(pkg.Dependencies) > 0 {
			in := &Install{Dir: "/work/app", Hosts: hostsOf(reg.NPM, "registry.npmjs.org"),
				Script: "mkdir -p /work/app && cp -a /artifact/. /work/app/ && cd /work/app && " +
					"npm install --ignore-scripts --omit=dev --no-audit --no-fund --no-update-notifier --loglevel=error",
				Note: "npm install --ignore-scripts in the sandbox (install scripts never run)"}
			if reg.NPM != "" {
				in.Env = append(in.Env, "npm_config_registry="+reg.NPM)
			}
			return in, rebase(launch)
		}
	}
	pip := "python3 -m pip install --quiet --disable-pip-version-check --no-input --only-binary=:all: --target /work/pydeps "
	var what string
	switch {
	case exists("requirements.txt"):
		what = "-r /artifact/requirements.txt"
	case exists("pyproject.toml"):
		// The project's declared dependencies, not the project: building it
		// would run its build backend.
		data, err := os.ReadFile(filepath.Join(dir, "pyproject.toml"))
		if err != nil || len(data) > 1<<20 {
			break
		}
		p, err := manifest.ParsePyproject(data)
		if err != nil {
			break
		}
		for _, d := range p.Dependencies {
			if d.Group == "project.dependencies" {
				what += " " + shellQuote(d.Name+d.Spec)
			}
		}
	}
	if what == "" {
		return nil, launch
	}
	in := &Install{Dir: "/work", Env: []string{"PYTHONPATH=/work/pydeps"},
		Hosts:  append(hostsOf(reg.PyPI, "pypi.org"), "files.pythonhosted.org"),
		Script: pip + strings.TrimSpace(what),
		Note:   "pip install --only-binary=:all: in the sandbox: wheels only, a source distribution is refused because building it runs its code"}
	if reg.PyPI != "" {
		in.Env = append(in.Env, "PIP_INDEX_URL="+reg.PyPI)
		if u, err := url.Parse(reg.PyPI); err == nil && u.Scheme == "http" {
			// An http index is one the user named; pip asks that it be
			// trusted by name.
			in.Env = append(in.Env, "PIP_TRUSTED_HOST="+u.Hostname())
		}
	}
	return in, launch
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// rebase points a launch command's /artifact paths at the installed copy.
func rebase(launch []string) []string {
	out := make([]string, len(launch))
	for i, a := range launch {
		out[i] = strings.Replace(a, "/artifact/", "/work/app/", 1)
	}
	return out
}
