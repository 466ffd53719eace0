package compare

import (
	"math"
	"strings"
	"testing"
)

func TestVerdict(t *testing.T) {
	sig := Comparison{PTHolm: 0.01, PPermHolm: 0.02}
	with := func(c Comparison, lo, hi, diff float64) Comparison {
		c.CILow, c.CIHigh, c.Diff = lo, hi, diff
		return c
	}
	for _, tc := range []struct {
		name string
		c    Comparison
		want string
	}{
		{"interval inside ±δ", with(Comparison{PTHolm: 0.5, PPermHolm: 0.5}, -0.005, 0.008, 0.001), "equivalent within ±0.01"},
		{"significant and inside ±δ", with(sig, 0.002, 0.009, 0.005), "equivalent within ±0.01"},
		{"both tests, interval above 0", with(sig, 0.02, 0.05, 0.03), better},
		{"both tests, interval below 0", with(sig, -0.05, -0.02, -0.03), worse},
		{"interval holds 0", with(sig, -0.02, 0.03, 0.005), inconclusive},
		{"one test only", with(Comparison{PTHolm: 0.01, PPermHolm: 0.2}, 0.02, 0.05, 0.03), inconclusive},
		{"refused", func() Comparison { c := with(sig, 0.02, 0.05, 0.03); c.Refused = "no"; return c }(), inconclusive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.verdict(0.01, 0.05); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJoint: two one-comparison reports adjusted jointly carry the p-values of the one report
// that compares both runs (TestFromScoresCorrections' arithmetic: Holm over pb < pc gives 2·pb
// and max(2·pb, pc)); the inputs keep their own.
func TestJoint(t *testing.T) {
	base := scores("base", "q1=0", "q2=0", "q3=0")
	b := scores("b", "q1=1", "q2=2", "q3=3")
	c := scores("c", "q1=1", "q2=-1", "q3=1")
	opt := Options{Tests: TTest}
	rb, rc := must(opt.FromScores(base, b)), must(opt.FromScores(base, c))
	j := Joint(rb, rc)
	pb, pc := rb.Comparisons[0].PT, rc.Comparisons[0].PT
	if got := j[0].Comparisons[0].PTHolm; !near(got, 2*pb) {
		t.Errorf("b: Holm %v, want %v", got, 2*pb)
	}
	if got := j[1].Comparisons[0].PTHolm; !near(got, math.Max(2*pb, pc)) {
		t.Errorf("c: Holm %v, want %v", got, math.Max(2*pb, pc))
	}
	if got := j[1].Comparisons[0].PTBonferroni; !near(got, math.Min(1, 2*pc)) {
		t.Errorf("c: Bonferroni %v, want %v", got, math.Min(1, 2*pc))
	}
	if rb.Comparisons[0].PTHolm != pb || j[0].Family != 2 || rb.Family != 1 {
		t.Errorf("input changed (%v) or family %d, %d", rb.Comparisons[0].PTHolm, j[0].Family, rb.Family)
	}
	if !strings.Contains(j[0].Summary(), "over the 2 comparisons (a joint family of several reports)") || !strings.Contains(rb.Summary(), "over the 1 comparison (runs × measures)") {
		t.Errorf("summary %q", j[0].Summary())
	}
	header, rows := VerdictTable(0.01, j...)
	if len(header) != 9 || len(rows) != 2 || rows[1][0] != "c vs base" || rows[0][2] != "+2.0000" {
		t.Errorf("table %q %q", header, rows)
	}
	// b: d = (1, 2, 3), a constant baseline: d_av = mean(d) / ((sd(b) + 0) / 2) = 2 / (1/2) = 4.
	if rows[0][5] != "+4.000" {
		t.Errorf("d_av %q, want +4.000", rows[0][5])
	}
	// Tests = TTest: no randomization p, so neither is called better; neither interval lies in ±0.01.
	if v := Verdicts(0.01, j...); v[inconclusive] != 2 {
		t.Errorf("verdicts %v", v)
	}
}
