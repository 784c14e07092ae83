// Package noinstallscripts implements the no-install-scripts check.
package noinstallscripts

// Doc is the check's documentation.
const Doc = `Finds code that runs when the artifact is installed: package.json
preinstall, install, postinstall, prepare, preprepare, postprepare and
prepublish scripts (prepare runs on git installs); binding.gyp (an implicit
node-gyp rebuild); Python setup.py, in-tree build backends (backend-path)
and shipped .pth files; Cargo build.rs. Indirections ('npm run x', 'sh
install.sh') are followed and the target rated with the shell rules.

It fails on download-and-execute, decoded execution, credential access,
persistence or any other shell-rules fail at install time; on
self-propagation at install time (npm publish, twine upload, git push);
on a .pth file that executes more than a path entry; and on a setup.py that
reaches the network or runs commands. It warns on other install-time
execution (node install.js, node-gyp, a custom setup.py cmdclass, build.rs)
and on an install script that is missing. Recognised builds pass: tsc,
tsup, esbuild, rollup, vite build, webpack, babel, swc, bun build, husky,
patch-package, and 'npm run build' resolving to those.`

// Remediation says how to fix a finding.
const Remediation = `Do the work at build time and publish its output, not at install time.`
