package nodynamiccodeexecution

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-dynamic-code-execution.
var Check = &checks.Check{
	ID:          "no-dynamic-code-execution",
	Version:     "1.4.0",
	Title:       "No execution of strings",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

type sinkKind int

const (
	codeSink  sinkKind = iota // eval, exec, Function
	shellSink                 // a command line run by a shell
	loadSink                  // pickle/yaml/marshal
	importSink
)

// sinks by the last part of the called name, per language.
var jsSinks = map[string]sinkKind{"eval": codeSink, "Function": codeSink, "runInThisContext": codeSink, "runInNewContext": codeSink,
	"runInContext": codeSink, "compileFunction": codeSink, "_compile": codeSink, "execSync": shellSink, "require": importSink, "import": importSink}
var pySinks = map[string]sinkKind{"exec": codeSink, "eval": codeSink, "compile": codeSink, "system": shellSink, "popen": shellSink,
	"getoutput": shellSink, "getstatusoutput": shellSink, "spawn": shellSink, "run_path": codeSink, "run_module": codeSink,
	"loads": loadSink, "load": loadSink, "import_module": importSink, "__import__": importSink}

var (
	// Matched against tokens joined by single spaces (tokensText), so a
	// dotted name reads "r . text ( )". A response's body read as text
	// (r.text(), r.json()) is remote content whatever fetched it; the
	// calls that fetch are the vocabulary's (fetches).
	bodyRead = lex.Lazy(`\bread_text\b|\. ?(text|json) ?\( ?\)`)
	// shellInURL: a URL whose text holds $(…) or `…`
	shellInURL = lex.Lazy("^[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s]*(?:\\$\\([^)\\n]+\\)|`[^`\\n]+`)")
	decodey    = lex.Lazy(`\b(b64decode|atob|decodebytes|fromhex|unhexlify|decompress|inflate|inflateSync|gunzipSync|unzipSync|Buffer ?\. ?from|codecs ?\. ?decode|rot13|fromCharCode)\b`)
)

// fetches reports code (source text of lang) that calls what the
// vocabulary knows as reaching the network, or reads a response's body.
func fetches(lang, code string) bool {
	if bodyRead.Re().MatchString(code) {
		return true
	}
	for _, c := range fold.Parse(lang, code).Calls() {
		if vocab.Networked(lang, c.Name) {
			return true
		}
	}
	return false
}

func tokensText(ts []lex.Token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// resolveAlias maps aliases and computed lookups of eval/exec to the sink.
func resolveAlias(f *fold.File, name string, c fold.Call) string {
	base := name[strings.LastIndex(name, ".")+1:]
	if v, ok := f.Consts[base]; ok && (v == "eval" || v == "exec") {
		return v
	}
	if base == "getattr" && len(c.Args) >= 2 {
		if v, ok := f.Eval(c.Args[1], 0); ok && (v == "eval" || v == "exec" || v == "system" || v == "compile") {
			return v
		}
	}
	return base
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var fails, warns []checks.Evidence
	var scores []float64
	n := 0
	for f, fl := range files.Code(s) {
		n++
		lang := fl.Lang
		aliases := map[string]string{}
		for name, v := range fl.Consts {
			if v == "eval" || v == "exec" || v == "Function" {
				aliases[name] = v
			}
		}
		// const e = eval; e(x)
		for i := 0; i+2 < len(fl.Toks); i++ {
			if fl.Toks[i+1].Text == "=" && (fl.Toks[i+2].Text == "eval" || fl.Toks[i+2].Text == "exec") && (i+3 >= len(fl.Toks) || fl.Toks[i+3].Text != "(") {
				aliases[fl.Toks[i].Text] = fl.Toks[i+2].Text
			}
		}
		// globalThis["ev"+"al"](x), window[...](x), __builtins__.__dict__[...](x)
		for i := 0; i+1 < len(fl.Toks); i++ {
			t := fl.Toks[i]
			if t.Text != "[" || i == 0 {
				continue
			}
			prev := fl.Toks[i-1].Text
			if prev != "globalThis" && prev != "window" && prev != "global" && prev != "self" && prev != "__dict__" && prev != "__builtins__" {
				continue
			}
			end := i + 1
			for end < len(fl.Toks) && fl.Toks[end].Text != "]" {
				end++
			}
			if v, ok := fl.Eval(fl.Toks[i+1:end], 0); ok && (v == "eval" || v == "exec" || v == "Function") {
				fails = append(fails, checks.At(f.Path, int(t.Line), 0, fmt.Sprintf("%s reached through a computed lookup (%s[...])", v, prev)))
			}
		}
		// A URL literal carrying a shell substitution: inert in this
		// language, it is a command for whatever shell opens the URL (an
		// OAuth client launching the authorization endpoint in a browser).
		for _, t := range fl.Toks {
			if t.Kind != lex.String {
				continue
			}
			if v := lex.Unquote(t.Text); shellInURL.Re().MatchString(v) {
				fails = append(fails, checks.At(f.Path, int(t.Line), 0, fmt.Sprintf("a URL carries a shell command substitution (%s): a command for whatever opens it", clip(v, 80))))
			}
		}
		sinks := pySinks
		if lang == "js" {
			sinks = jsSinks
		}
		for _, c := range fl.Calls() {
			base := resolveAlias(fl, c.Name, c)
			if a, ok := aliases[c.Name]; ok {
				base = a
			}
			kind, isSink := sinks[base]
			full := c.Name
			switch {
			case lang == "js" && (base == "exec" || base == "execSync") && !strings.Contains(full, "RegExp") && !isRegexExec(fl.Toks, c.Index) && !strings.HasPrefix(full, "db.") && full != "exec":
				kind, isSink = shellSink, true
			case lang == "js" && base == "exec" && full == "exec":
				kind, isSink = shellSink, true // destructured child_process exec
			case lang == "js" && (base == "setTimeout" || base == "setInterval") && len(c.Args) > 0 && (c.Args[0][0].Kind == lex.String || c.Args[0][0].Kind == lex.Template):
				kind, isSink = codeSink, true
			case lang == "python" && strings.HasPrefix(full, "subprocess.") && hasShellTrue(c):
				kind, isSink = shellSink, true
			case lang == "js" && (base == "spawn" || base == "execFile" || base == "spawnSync") && hasShellTrue(c):
				kind, isSink = shellSink, true
			case lang == "python" && (base == "loads" || base == "load") && !(strings.HasPrefix(full, "pickle.") || strings.HasPrefix(full, "marshal.") || strings.HasPrefix(full, "yaml.") || strings.HasPrefix(full, "cPickle.")):
				isSink = false
			case lang == "python" && base == "load" && strings.HasPrefix(full, "yaml.") && strings.Contains(tokensText(flatten(c.Args)), "SafeLoader"):
				isSink = false
			case lang == "python" && base == "spawn" && !strings.HasPrefix(full, "pty."):
				isSink = false
			case lang == "python" && base == "compile" && (strings.HasPrefix(full, "re.") || strings.Contains(full, ".")):
				isSink = false
			case lang == "python" && base == "eval" && strings.Contains(full, "."):
				isSink = false // model.eval(), ast.literal_eval
			case lang == "python" && (base == "system" || base == "popen") && !strings.HasPrefix(full, "os."):
				isSink = false
			case lang == "python" && strings.HasPrefix(full, "os.exec"):
				kind, isSink = shellSink, true
			}
			args := c.Args
			if strings.HasSuffix(c.Name, "getattr") && isSink {
				args = fl.Chained(c) // getattr(builtins, "exec")(payload)
			}
			if !isSink || len(args) == 0 {
				continue
			}
			arg := args[0]
			text := tokensText(arg)
			folded, constant := fl.Eval(arg, 0)
			at := func(msg string) checks.Evidence {
				return checks.At(f.Path, c.Line, 0, fmt.Sprintf("%s: %s", c.Name, msg))
			}
			switch {
			case kind == codeSink && fetches(lang, text):
				fails = append(fails, at("executes content fetched from the network"))
			case (kind == codeSink || kind == shellSink) && decodey.Re().MatchString(text):
				fails = append(fails, at("executes decoded content"))
			case kind == shellSink && constant:
				fs, _, err := shell.AnalyzeLenient([]byte(folded))
				for _, x := range fs {
					if err == nil && x.Severity == shell.Fail {
						fails = append(fails, at(fmt.Sprintf("runs a hostile command (%s)", x.Category)))
						break
					}
				}
			case kind == shellSink:
				warns = append(warns, at("runs a shell string with non-constant parts"))
				scores = append(scores, 0.25)
			case kind == codeSink && !constant:
				warns = append(warns, at("executes a non-literal string"))
				scores = append(scores, 0.25)
			case kind == codeSink && constant:
				fs, _, _ := shell.AnalyzeLenient([]byte(folded))
				if len(fs) > 0 || decodey.Re().MatchString(folded) || fetches(lang, folded) {
					fails = append(fails, at("executes folded code that fetches, decodes or runs commands"))
				}
			case kind == importSink && !constant:
				warns = append(warns, at("imports a computed module"))
				scores = append(scores, 0.75)
			case kind == loadSink && !constant:
				warns = append(warns, at("deserialises untrusted data without a safe loader"))
				scores = append(scores, 0.75)
			}
		}
	}
	fails, warns = reach.Annotate(in.Subject, fails), reach.Annotate(in.Subject, warns)
	if r, ok := query.CodeSkipped(s); ok && len(fails) == 0 {
		return r, nil
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(fails, warns...)...), nil
	case len(warns) > 0:
		score := 1.0
		for _, x := range scores {
			score = min(score, x)
		}
		return checks.Warning(score, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), warns...), nil
	case n == 0:
		return checks.NotApplicable("no JavaScript, TypeScript or Python code"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, no string execution", checks.Plural(n, "code file"))), nil
}

func flatten(args [][]lex.Token) []lex.Token {
	var out []lex.Token
	for _, a := range args {
		out = append(out, a...)
	}
	return out
}

func hasShellTrue(c fold.Call) bool {
	t := strings.ReplaceAll(tokensText(flatten(c.Args)), " ", "")
	return strings.Contains(t, "shell=True") || strings.Contains(t, "shell:true")
}

// isRegexExec: /re/.exec(s) or a RegExp variable's exec; the receiver is a
// regex literal or a name ending in re/regex/pattern.
func isRegexExec(ts []lex.Token, i int) bool {
	if i == 0 {
		return false
	}
	prev := ts[i-1]
	if prev.Kind == lex.Regex {
		return true
	}
	l := strings.ToLower(ts[i].Text)
	return strings.HasSuffix(l, "re") || strings.HasSuffix(l, "regex") || strings.HasSuffix(l, "regexp") || strings.HasSuffix(l, "pattern")
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
