// Package noobfuscatedpayloads implements the no-obfuscated-payloads check.
package noobfuscatedpayloads

// Doc is the check's documentation.
const Doc = `Decodes the encoded literals of every text file (quoted base64 or
base64url runs of 40+ characters, hex of 48+, char-code arrays of 20+,
\x and \u escape runs, URL-encoding) and compressed bytes after decoding,
up to 4 layers, and judges what comes out. It fails when the decoded text
is code or shell (a shebang, /bin/sh, chmod, rm -rf, eval, exec(, require(,
import, child_process, subprocess, os.system, socket, powershell), a
command that reaches a host through a program the vocabulary knows as
fetching or sending (curl, wget, nc, aria2c, scp), or a program the shell
rules rate as failing, and on packer and
obfuscator signatures: eval(function(p,a,c,k,e,..., obfuscator-style
_0x identifiers with a string array, long JSFuck runs, PyArmor,
gzinflate(base64_decode(, PowerShell -EncodedCommand.

Data and font URIs and any decoded bytes with a media or font signature,
source maps, SRI hashes, PEM certificates, readable minified bundles and
base64 test vectors that decode to prose pass. Evidence names the literal's
place and the layer chain (base64→gzip→shell), never the payload.`

// Remediation says how to fix a finding.
const Remediation = `Ship readable source.`
