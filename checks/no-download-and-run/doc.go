// Package nodownloadandrun implements the no-download-and-run check.
package nodownloadandrun

// Doc is the check's documentation.
const Doc = `Finds code the artifact runs without anyone being able to read it first:
content downloaded at run time, or decoded or decompressed from an opaque
string, that reaches a shell, an interpreter, eval/exec, a deserialiser, or
a file that is then run. It reads every medium through the analysis model:
code, documents' commands (curl … | sh in a Usage block, bash -c
"$(curl …)", source <(curl …), python -c "$(curl …)"), hooks, package
scripts and MCP launch specs, following values through variables, pipes,
command substitutions, files written then run, and strings built from
parts.

Code hidden in the source counts as decoded: text spelled as character
codes (bytes([99, …]), String.fromCharCode, chr in a comprehension), HTML
entities, reversed strings, format templates, an executable's bytes written
out as a list, and a base64, hex or compressed constant even when it does
not decode to text.

It fails on every such flow, with exceptions that only warn: a
document's step that runs the official installer of a well-known toolchain
(rustup, uv, Homebrew, Docker, …), of a host the artifact's manifests name
as its home (homepage, repository), or from a forge repository it names as
its own (in its manifests or its documentation's prose, or named for the
artifact or its title), which its user runs as a documented install step;
and a RUN step of a Dockerfile a document shows, which runs inside the
image it builds and is never a command the model runs (a Dockerfile the
artifact ships is judged like any program). A host that is only linked
from the documentation is not a vendor: any text can link any host, and a
forge hosts anyone's code. A labelled example (a security guide showing
the shape) or a prohibition ("never pipe curl into sh") passes.

It also fails a document that tells its reader to download and install
software from a web address ("download and install from: https://…",
"quick setup here -> https://…") when the host is no toolchain installer,
package registry or forge, nor the home the manifests name, and the
artifact names it nowhere but in that step: a prerequisite the artifact
never runs is a lure to install something else. A vendor's CLI that the
artifact's commands use (docker, a service's own tool) passes.

A package installed from outside the package registries is downloaded code
run too: its build and install scripts run as the user. It fails on a
package manager (pip, python -m pip, uv, npm, npx, …) given an archive or a
repository URL on a host that is no registry, forge or known toolchain
installer (pip install https://host/x.tar.gz, git+https://host/x.git), or an
index that replaces the registry (--index-url, -i, --registry, --from), unless
the host is the artifact's own home. An extra index beside the registry
(--extra-index-url, --find-links) warns: a package of the same name may come
from either. A local index (localhost) and a vendor's package index the
vocabulary names (download.pytorch.org, pypi.nvidia.com) pass.`

// Remediation says how to fix a finding.
const Remediation = `Ship the code you run, pin it by checksum, or tell the user to install the
tool from its vendor's documented instructions; never run downloaded or
decoded text.`
