package behave

import "math"

// tCrit are two-sided 95% Student's t critical values for 1..30 degrees
// of freedom.
var tCrit = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// Summarize computes the statistics of graded runs (scores in 0..1) for k.
func Summarize(scores []float64, passes []bool, k int) *Stats {
	n := len(scores)
	s := &Stats{N: n, K: k}
	if n == 0 {
		return s
	}
	for _, x := range scores {
		s.Mean += x
	}
	s.Mean /= float64(n)
	for _, p := range passes {
		if p {
			s.Passes++
		}
	}
	if n > 1 {
		var ss float64
		for _, x := range scores {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(ss / float64(n-1))
		t := 1.96
		if n-1 <= len(tCrit) {
			t = tCrit[n-2]
		}
		h := t * s.SD / math.Sqrt(float64(n))
		s.CI = &[2]float64{max(0, s.Mean-h), min(1, s.Mean+h)}
	}
	if k <= 0 || k > n {
		s.K = n
	}
	s.PassAtK = 1 - choose(n-s.Passes, s.K)/choose(n, s.K)
	s.PassHatK = choose(s.Passes, s.K) / choose(n, s.K)
	return s
}

// choose is the binomial coefficient C(n,k), 0 when k > n.
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
