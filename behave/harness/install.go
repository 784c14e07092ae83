package harness

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
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
	if exists("requirements.txt") {
		in := &Install{Dir: "/work", Env: []string{"PYTHONPATH=/work/pydeps"},
			Hosts:  append(hostsOf(reg.PyPI, "pypi.org"), "files.pythonhosted.org"),
			Script: "pip install --quiet --disable-pip-version-check --no-input --only-binary=:all: --target /work/pydeps -r /artifact/requirements.txt",
			Note:   "pip install --only-binary=:all: in the sandbox: wheels only, a source distribution is refused because building it runs its code"}
		if reg.PyPI != "" {
			in.Env = append(in.Env, "PIP_INDEX_URL="+reg.PyPI)
		}
		return in, launch
	}
	return nil, launch
}

// rebase points a launch command's /artifact paths at the installed copy.
func rebase(launch []string) []string {
	out := make([]string, len(launch))
	for i, a := range launch {
		out[i] = strings.Replace(a, "/artifact/", "/work/app/", 1)
	}
	return out
}
