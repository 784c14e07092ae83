package noescapingsymlinks

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-escaping-symlinks.
var Check = &checks.Check{
	ID:          "no-escaping-symlinks",
	Version:     "1.0.0",
	Title:       "No symlink leaves the artifact",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MaxHops bounds link chains, as the kernel's MAXSYMLINKS does.
const MaxHops = 40

type verdict int

const (
	inside verdict = iota
	escapes
	dangling
	loops
)

// Resolve follows a link's target segment by segment inside the
// inventory. It returns where the chain ends, relative to the root.
func Resolve(inv *resolve.Inventory, linkPath string) (verdict, string) {
	l, ok := inv.Symlink(linkPath)
	if !ok {
		return dangling, linkPath
	}
	return follow(inv, path.Dir(linkPath), l.Target, 0)
}

func follow(inv *resolve.Inventory, dir, target string, hops int) (verdict, string) {
	if hops >= MaxHops {
		return loops, target
	}
	if strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) || len(target) > 1 && target[1] == ':' {
		return escapes, target
	}
	var stack []string
	if dir != "." && dir != "" {
		stack = strings.Split(dir, "/")
	}
	segs := strings.Split(target, "/")
	for i, seg := range segs {
		switch seg {
		case "", ".":
			continue
		case "..":
			if len(stack) == 0 {
				return escapes, target
			}
			stack = stack[:len(stack)-1]
			continue
		}
		stack = append(stack, seg)
		cur := strings.Join(stack, "/")
		if next, ok := inv.Symlink(cur); ok {
			v, where := follow(inv, path.Dir(cur), next.Target, hops+1)
			if v != inside {
				return v, where
			}
			stack = strings.Split(where, "/")
			if where == "." {
				stack = nil
			}
			_ = i
		}
	}
	end := strings.Join(stack, "/")
	if end == "" {
		end = "."
	}
	if !inv.Exists(end) {
		return dangling, end
	}
	return inside, end
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	inv := in.Subject.Inventory
	var fails, warns []checks.Evidence
	for _, l := range inv.Symlinks {
		v, _ := Resolve(inv, l.Path)
		msg := fmt.Sprintf("%s -> %s", l.Path, l.Target)
		switch v {
		case escapes:
			fails = append(fails, checks.At(l.Path, 0, 0, msg+" leaves the artifact"))
		case dangling:
			warns = append(warns, checks.At(l.Path, 0, 0, msg+" points to nothing in the artifact"))
		case loops:
			warns = append(warns, checks.At(l.Path, 0, 0, fmt.Sprintf("%s does not resolve within %d hops", msg, MaxHops)))
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s; a link must stay inside the artifact", fails[0].Message), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	case len(inv.Symlinks) == 0:
		return checks.NotApplicable("no symlinks"), nil
	}
	return checks.Passed(fmt.Sprintf("%s, all inside the artifact", checks.Plural(len(inv.Symlinks), "symlink"))), nil
}
