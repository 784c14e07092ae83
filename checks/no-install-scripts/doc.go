// Package noinstallscripts implements the no-install-scripts check.
package noinstallscripts

// Doc is the check's documentation.
const Doc = `Finds code that runs when the artifact is installed: package.json
preinstall, install, postinstall, prepare, preprepare, postprepare and
prepublish scripts (prepare runs on git installs); binding.gyp (an implicit
node-gyp rebuild); Python setup.py, in-tree build backends (backend-path)
and shipped .pth files; Cargo build.rs. Indirections ('npm run x', 'sh
install.sh', 'node scripts/x.js' and what those files run) are followed,
and what runs is read through the analysis model.

It fails when install-time code runs what it downloads or decodes, binds
a shell to a connection, sends a secret or the machine's identity away,
reads a credential store, persists, raises privilege, destroys outside its
tree, turns off defences or publishes and pushes itself (npm publish,
twine upload, git push); on a .pth file that executes more than a path
entry; and on a setup.py that reaches the network or runs commands. It
warns on other install-time execution (node install.js, node-gyp, a custom
setup.py cmdclass, build.rs), on sudo, and on an install script that is
missing. Recognised builds pass: tsc, tsup, esbuild, rollup, vite build,
webpack, babel, swc, bun build, husky, patch-package, and 'npm run build'
resolving to those.`

// Remediation says how to fix a finding.
const Remediation = `Do the work at build time and publish its output, not at install time.`
