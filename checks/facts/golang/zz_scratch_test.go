package golang_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/metahub-ai/attest/checks/analysis"
)

func TestZZDump(t *testing.T) {
	src := os.Getenv("DUMP_SRC")
	if src == "" {
		t.Skip()
	}
	lang := os.Getenv("DUMP_LANG")
	if lang == "" {
		lang = "go"
	}
	b, _ := os.ReadFile(src)
	s := analysis.Code(lang, "x", string(b), 0, 0)
	for _, x := range s.Sources {
		fmt.Printf("source %s %q line %d\n", x.Label, x.What, x.At.Line)
	}
	for _, x := range s.Sinks {
		fmt.Printf("sink %s %s -> %q args=%v labels=%v line %d via=%v\n", x.Kind, x.API, x.Dest, x.Args, x.DestLabels, x.At.Line, x.At.Via)
	}
	for _, x := range s.Flows {
		fmt.Printf("flow %s(%s) -> %s %s %q args=%v\n", x.From.Label, x.From.What, x.To.Kind, x.To.API, x.To.Dest, x.To.Args)
	}
	for _, x := range s.Effects {
		fmt.Printf("effect %s %s\n", x.Kind, x.What)
	}
	for _, x := range s.Unresolved {
		fmt.Printf("unresolved %d %s\n", x.At.Line, x.What)
	}
}
