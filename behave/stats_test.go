package behave

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-3 }

// Known values: pass@k and pass^k as τ-bench defines them, a t interval.
func TestSummarize(t *testing.T) {
	s := Summarize([]float64{0.9, 0.7, 0.5, 0.3}, []bool{true, true, false, false}, 2)
	// C(4,2)=6; pass@2 = 1 − C(2,2)/6 = 5/6; pass^2 = C(2,2)/6 = 1/6.
	if s.N != 4 || s.Passes != 2 || !near(s.Mean, 0.6) || !near(s.PassAtK, 5.0/6) || !near(s.PassHatK, 1.0/6) {
		t.Fatalf("%+v", s)
	}
	// sd = sqrt(0.2/3) = 0.2582; t(3) = 3.182; half-width 0.4108.
	if !near(s.SD, 0.2582) || s.CI == nil || !near(s.CI[0], 0.1892) || !near(s.CI[1], 1) {
		t.Fatalf("sd %v ci %v", s.SD, s.CI)
	}
	one := Summarize([]float64{0.8}, []bool{true}, 0)
	if one.CI != nil || one.K != 1 || one.PassHatK != 1 || one.PassAtK != 1 {
		t.Fatalf("%+v", one)
	}
	none := Summarize([]float64{0.1, 0.2}, []bool{false, false}, 0)
	if none.PassAtK != 0 || none.PassHatK != 0 || none.K != 2 {
		t.Fatalf("%+v", none)
	}
}
