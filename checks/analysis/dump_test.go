package analysis

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/resolve"
)

// TestDump prints the model of ATTEST_DUMP_FACTS, a development aid for
// reading what the producers found; ATTEST_DUMP_FACTS_SINKS=1 adds every
// sink.
func TestDump(t *testing.T) {
	dir := os.Getenv("ATTEST_DUMP_FACTS")
	if dir == "" {
		t.Skip()
	}
	s, err := resolve.Load(context.Background(), dir, resolve.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set := Of(s)
	var b strings.Builder
	for _, x := range set.Flows {
		fmt.Fprintf(&b, "flow %s %q → %s %s %q at %s ctx=%d str=%s\n", x.From.Label, x.From.What, x.To.Kind, x.To.API, x.To.Dest, x.To.At, x.To.Ctx, x.Strength)
	}
	for _, x := range set.Sinks {
		if x.Kind == facts.ModelInstruction {
			fmt.Fprintf(&b, "instr %s %q at %s ctx=%d\n", x.Instr.Family, x.Instr.Phrase, x.At, x.Ctx)
		} else if os.Getenv("ATTEST_DUMP_FACTS_SINKS") != "" {
			fmt.Fprintf(&b, "sink %s %s %q %v at %s ctx=%d args=%q\n", x.Kind, x.API, x.Dest, x.DestLabels, x.At, x.Ctx, x.Args)
		}
	}
	for _, x := range set.Effects {
		fmt.Fprintf(&b, "effect %s %q at %s\n", x.Kind, x.What, x.At)
	}
	for _, x := range set.Unresolved {
		fmt.Fprintf(&b, "unresolved %s at %s\n", x.What, x.At)
	}
	fmt.Fprintf(&b, "intent hosts %v\n", set.Intent.Hosts)
	fmt.Println(b.String())
}
