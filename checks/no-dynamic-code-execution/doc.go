// Package nodynamiccodeexecution implements the no-dynamic-code-execution check.
package nodynamiccodeexecution

// Doc is the check's documentation.
const Doc = `Finds code that executes strings in JavaScript/TypeScript and Python:
eval, Function/new Function, string setTimeout/setInterval, vm.run*,
child_process exec/execSync, spawn/execFile with shell: true, computed
require/import(); exec, eval, compile, os.system, os.popen,
subprocess.*(..., shell=True), os.exec*, pty.spawn, runpy, marshal.loads,
pickle.loads. Arguments are folded (constants, concatenation, join,
reversal, char codes, base64/hex decoding), and aliases are resolved
(const e = eval; globalThis["ev" + "al"]; getattr(builtins, "ex" + "ec")).

It fails on executing network-obtained content (eval of a call the
vocabulary knows as reaching the network, such as fetch, axios,
superagent.get, requests.get or urlopen, or of a response body read with
.text() or .json()), executing decoded content (exec(base64.b64decode(...)),
eval(atob(...)), exec(zlib.decompress(...))), and a constant or folded
command the shell rules rate as failing; and on a URL literal that
carries a shell command substitution ("http://user$(calc)@host/authorize"):
inert in the code that holds it, it is a command for whatever shell opens
the URL, as an OAuth client does with an authorization endpoint. It warns
(score 0.25) on shell strings with non-constant parts and eval/exec of
non-literals, and (0.75) on computed dynamic imports and pickle.loads or
yaml.load without a safe loader. List-argument execution of a constant program, RegExp exec,
db.exec/cursor.execute, model.eval(), ast.literal_eval, re.compile,
JSON.parse and a constant benign command (os.system("clear")) pass. Go,
shell and other languages are read by their own checks; tool-handler
parameter flows need the MCP surface extractor.`

// Remediation says how to fix a finding.
const Remediation = `Use list-argument execution of a fixed program; never execute fetched or
decoded text.`
