package attest_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/policy"
)

var updateDetection = flag.Bool("updatedetection", false, "rewrite the corpus section of docs/DETECTION.md")

// Thresholds of the labelled corpus.
const (
	minRecall    = 0.95
	minPrecision = 0.95
)

type corpusOutcome struct {
	pair, check        string
	caught, checkFired bool // malicious: a blocking safety fail; the named check among them
	falsePositive      bool // benign: any blocking fail
	benignBlocking     []string
	maliciousBlocking  []string
}

func blockingSafety(r *attest.Report) []string {
	var out []string
	for _, res := range r.Results {
		if res.Blocking && res.Axis == "safety" && res.Status == "fail" && res.Waiver == nil {
			out = append(out, res.Check)
		}
	}
	return out
}

// TestCorpus evaluates every malicious/benign twin of testdata/corpus and
// holds recall and precision to their thresholds: a malicious artifact
// must end with verdict fail and a blocking safety failure, a benign twin
// with no blocking failure at all.
func TestCorpus(t *testing.T) {
	pairs, _ := filepath.Glob("../testdata/corpus/*/check")
	if len(pairs) < 40 {
		t.Fatalf("only %d pairs in the corpus", len(pairs))
	}
	var outs []corpusOutcome
	for _, cf := range pairs {
		dir := filepath.Dir(cf)
		want, _ := os.ReadFile(cf)
		o := corpusOutcome{pair: filepath.Base(dir), check: strings.TrimSpace(string(want))}
		for _, side := range []string{"malicious", "benign"} {
			target := checktest.Materialize(t, filepath.Join(dir, side))
			r, err := attest.Evaluate(context.Background(), target, attest.Options{Now: clock})
			if err != nil {
				t.Fatalf("%s/%s: %v", o.pair, side, err)
			}
			if side == "malicious" {
				o.maliciousBlocking = blockingSafety(r)
				o.caught = r.Score.Verdict == policy.VerdictFail && len(o.maliciousBlocking) > 0
				o.checkFired = slices.Contains(o.maliciousBlocking, o.check)
			} else {
				o.benignBlocking = r.Score.Blocking
				o.falsePositive = len(r.Score.Blocking) > 0
			}
		}
		outs = append(outs, o)
	}
	tp, fp := 0, 0
	for _, o := range outs {
		if o.caught {
			tp++
		} else {
			t.Errorf("%s: malicious twin not caught (blocking safety: %v)", o.pair, o.maliciousBlocking)
		}
		if o.falsePositive {
			fp++
			t.Errorf("%s: benign twin blocked by %v", o.pair, o.benignBlocking)
		}
		if !o.checkFired {
			t.Logf("%s: caught by %v rather than %s", o.pair, o.maliciousBlocking, o.check)
		}
	}
	recall := float64(tp) / float64(len(outs))
	precision := 1.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	t.Logf("corpus: %d pairs, recall %.3f, precision %.3f", len(outs), recall, precision)
	if recall < minRecall || precision < minPrecision {
		t.Errorf("recall %.3f and precision %.3f; the thresholds are %.2f and %.2f", recall, precision, minRecall, minPrecision)
	}
	section := corpusSection(outs, recall, precision)
	const path = "../docs/DETECTION.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start, end := strings.Index(string(doc), "<!-- corpus:start -->"), strings.Index(string(doc), "<!-- corpus:end -->")
	if start < 0 || end < start {
		t.Fatal("docs/DETECTION.md has no corpus section markers")
	}
	updated := string(doc[:start]) + "<!-- corpus:start -->\n" + section + string(doc[end:])
	if *updateDetection {
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if updated != string(doc) {
		t.Errorf("the corpus section of docs/DETECTION.md is out of date; run 'go test ./attest -run TestCorpus -updatedetection'")
	}
}

func corpusSection(outs []corpusOutcome, recall, precision float64) string {
	type agg struct{ pairs, caught, fired, fp int }
	per := map[string]*agg{}
	for _, o := range outs {
		a := per[o.check]
		if a == nil {
			a = &agg{}
			per[o.check] = a
		}
		a.pairs++
		if o.caught {
			a.caught++
		}
		if o.checkFired {
			a.fired++
		}
		if o.falsePositive {
			a.fp++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d malicious/benign pairs (%d artifacts). Recall **%.3f**, precision **%.3f** (thresholds %.2f and %.2f; `TestCorpus` fails below them).\n\n",
		len(outs), 2*len(outs), recall, precision, minRecall, minPrecision)
	b.WriteString("| check the pair targets | pairs | malicious caught | by this check | benign blocked |\n|---|---|---|---|---|\n")
	var names []string
	for k := range per {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		a := per[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", k, a.pairs, a.caught, a.fired, a.fp)
	}
	b.WriteString("\n")
	return b.String()
}
