package js_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/js"
)

// nodes counts a unit's statements and expressions, so that a test can
// hold the lowering's size to the input's.
func nodes(u *flow.Unit) int {
	n := 0
	var stmts func([]*flow.Stmt, int)
	var expr func(*flow.Expr, int)
	expr = func(x *flow.Expr, d int) {
		flow.Walk(x, func(e *flow.Expr) bool {
			n++
			if e.Fn != nil && d < 1000 {
				stmts(e.Fn.Body, d+1)
			}
			return true
		})
	}
	stmts = func(ss []*flow.Stmt, d int) {
		for _, s := range ss {
			n++
			for _, x := range s.Dst {
				expr(x, d)
			}
			expr(s.Val, d)
			stmts(s.Body, d+1)
			if s.Fn != nil {
				for _, x := range s.Fn.Decorators {
					expr(x, d)
				}
				for _, p := range s.Fn.Params {
					expr(p.Default, d)
				}
				stmts(s.Fn.Body, d+1)
			}
		}
	}
	stmts(u.Top.Body, 0)
	return n
}

var fuzzSeeds = []string{
	"",
	"`${`${`${a}`}`}`",
	"a?.b?.[c]?.(d) ?? e",
	"x = a ? (b) : (c) => d",
	"<div a={1} {...p}>{x}<b/></div>",
	"</div>{",
	"class A extends B<C> { #x = 1; static { y() } get z() { return this.#x } }",
	"for (const [k, {v = 1}] of Object.entries(o)) {}",
	"({a, b: [c, ...d] = []} = e)",
	"import x, * as y from 'z'; export * from './w'; export { a as default }",
	"function f<T,>(a?: T, ...b: T[]): asserts a is T {}",
	"a\n++b\nc\n(d)",
	"let x = /re/g.test(y) / 2",
	`"\u{110000}\uD800\x4" + '\101\400'`,
	"#!/usr/bin/env node\nrequire('x')",
	"((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))",
	strings.Repeat("[", 3000),
	strings.Repeat("c?(x):", 500) + "y",
	strings.Repeat("a<b,", 500),
	strings.Repeat("<a>", 300),
	strings.Repeat("`${", 400),
}

// FuzzLower lowers arbitrary input as JavaScript, TypeScript and TSX and
// runs the engine on it: nothing panics, and the lowered program is no
// larger than a bound proportional to the input.
func FuzzLower(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, c := range flowCases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, path := range []string{"f.js", "f.ts", "f.tsx"} {
			u := js.Lower(path, src, 0)
			if n := nodes(u); n > 64*len(src)+64 {
				t.Fatalf("%s: %d nodes for %d bytes", path, n, len(src))
			}
			analysis.Code("js", path, src, 0, 0)
		}
	})
}

// bundle generates a minified bundle of about size bytes: one line of
// declarations, functions, closures, objects, classes, loops and calls.
func bundle(size int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString(`!function(e){"use strict";var t=require("fs"),n=require("path"),o=require("https");`)
	for i := 0; b.Len() < size; i++ {
		v := fmt.Sprintf("v%d", i)
		switch r.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "var %s=function(a,b){return a+b*%d},%s_=%s(1,2);", v, i, v, v)
		case 1:
			fmt.Fprintf(&b, "const %s=(a,{b:c,...d}=e)=>a?c:d[%d]||`x${a}y${c}`;", v, i)
		case 2:
			fmt.Fprintf(&b, "if(e.%s>%d){e.%s=t.readFileSync(n.join(__dirname,\"f%d\"),\"utf8\")}else e.%s=void 0;", v, i, v, i, v)
		case 3:
			fmt.Fprintf(&b, "for(var %s=0;%s<%d;%s++)e[%s]=[%s,%d,\"s\"].map(function(x){return x.toString()});", v, v, i, v, v, v, i)
		case 4:
			fmt.Fprintf(&b, "class C%d extends Object{constructor(a){super(),this.a=a}m(){return this.a?.b??%d}}", i, i)
		case 5:
			fmt.Fprintf(&b, "e.%s={a:%d,b:\"%s\",c(){return o.get(\"https://cdn.example.com/%d\")},[\"k\"+%d]:!0};", v, i, v, i, i)
		case 6:
			fmt.Fprintf(&b, "switch(e.k%d){case 1:e.z=%d;break;default:e.z=typeof e}", i, i)
		case 7:
			fmt.Fprintf(&b, "try{JSON.parse(e.%s)}catch(x){e.%s=x instanceof Error&&x.message}", v, v)
		}
	}
	b.WriteString("}(module.exports);")
	return b.String()
}

func BenchmarkLower(b *testing.B) {
	for _, kb := range []int{50, 200, 800} {
		src := bundle(kb << 10)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				js.Lower("bundle.min.js", src, 0)
			}
		})
	}
}

// BenchmarkCode is lowering and the engine together over the bundle.
func BenchmarkCode(b *testing.B) {
	src := bundle(200 << 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		analysis.Code("js", "bundle.min.js", src, 0, 0)
	}
}
