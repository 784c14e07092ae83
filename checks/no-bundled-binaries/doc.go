// Package nobundledbinaries implements the no-bundled-binaries check.
package nobundledbinaries

// Doc is the check's documentation.
const Doc = `Classifies every file by its magic bytes, not its extension: ELF, PE,
Mach-O (including fat binaries), Java class files, Python bytecode, WASM,
native addons (.node, .so, .dylib, .dll), archives (zip-based formats,
tar, gzip, bzip2, xz, zstd, 7z, rar, cab, deb, rpm, ISO), OLE documents,
PDFs and SVG. Zip, tar, gzip and bzip2 archives are opened (nested up to 3
deep, at most 10,000 members and 256 MiB expanded, 100:1 per member), and
their text members are read by every content check as files named
archive!/member; an archive that cannot be read to the end makes this
check skip at best.

It fails on (a) an executable, bytecode, native library or archive the
artifact runs or loads: its path is named by a manifest, a script, a hook,
code or an instruction; (b) a disguised type, such as an icon.png that is an
ELF binary or a notes.md that is a zip; (c) active content inside a
document: a VBA project in an Office file, a PDF that launches a program or
embeds one, an SVG with a script; (d) a .pyc whose source is not shipped.
Any other binary, archive or bytecode is a warning to review (a committed
__pycache__ beside its sources, an unreferenced jar). Images, fonts, audio,
video, PDFs without active content and SQLite or Parquet data files pass.`

// Remediation says how to fix a finding.
const Remediation = `Ship sources and a build step, or download a checksummed release at
install time with the user's consent.`
