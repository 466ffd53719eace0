package stats

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// With two means the studentized range is |Z1 − Z2| / s, so P(Q > q) = P(|T_ν| > q/√2), and with
// ν = ∞ it is erfc(q/2): arithmetic independent of the integration.
func TestStudentizedRangeTwoMeans(t *testing.T) {
	for _, nu := range []float64{1, 3, 10, 29, 299} {
		for _, q := range []float64{0.1, 1, 2.5, 4, 9} {
			want := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Survival(q/math.Sqrt2)
			if got := (StudentizedRange{K: 2, Nu: nu}).Survival(q); !closeRel(got, want, 1e-7, 1e-9) {
				t.Errorf("K=2 ν=%v q=%v: %.12g, want 2·P(T > q/√2) = %.12g", nu, q, got, want)
			}
		}
	}
	for _, q := range []float64{0.5, 2, 5} {
		if got, want := (StudentizedRange{K: 2, Nu: math.Inf(1)}).Survival(q), math.Erfc(q/2); !closeRel(got, want, 1e-9, 1e-12) {
			t.Errorf("K=2 ν=∞ q=%v: %.12g, want erfc(q/2) = %.12g", q, got, want)
		}
	}
	d := StudentizedRange{K: 4, Nu: 20}
	if q := d.quantile(0.95); math.Abs(d.cdf(q)-0.95) > 1e-9 {
		t.Errorf("CDF(Quantile(0.95)) = %v", d.cdf(q))
	}
}

// TukeyHSD on a 3×3 table small enough to do by hand: query means 2, 5, 8, system means 4, 5,
// 6, grand mean 5; the residuals x − query mean − system mean + 5 are 0 except ±1 on four cells.
func TestTukeyHSDByHand(t *testing.T) {
	x := [][]float64{{1, 4, 7}, {2, 6, 7}, {3, 5, 10}}
	r, err := TukeyHSD(x, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if r.MSE != 4.0/4 || r.DF != 4 {
		t.Fatalf("MSE %v DF %v, want 4/4 and (3−1)(3−1)", r.MSE, r.DF)
	}
	p := r.Pair(0, 2)
	se := math.Sqrt(1.0 / 3)
	if p.Diff != 4-6 || math.Abs(p.Q-2/se) > 1e-12 {
		t.Errorf("pair (0,2): diff %v q %v, want −2 and 2/√(1/3)", p.Diff, p.Q)
	}
	if want := (StudentizedRange{K: 3, Nu: 4}).Survival(2 / se); math.Abs(p.P-want) > 1e-15 {
		t.Errorf("pair (0,2): p %v, want P(Q_{3,4} > 2√3) = %v", p.P, want)
	}
	crit := StudentizedRange{K: 3, Nu: 4}.quantile(0.95)
	if math.Abs(p.Low-(-2-crit*se)) > 1e-12 || math.Abs(p.High-(-2+crit*se)) > 1e-12 {
		t.Errorf("pair (0,2): interval [%v, %v], want −2 ∓ %v·√(1/3)", p.Low, p.High, crit)
	}
	back := r.Pair(2, 0)
	if back.Diff != 2 || back.Low != -p.High || back.High != -p.Low || back.P != p.P {
		t.Errorf("Pair(2, 0) = %+v, want the mirror of %+v", back, p)
	}
}

// With two systems the blocked HSD is the paired t-test: q = √2·|t| and the same p.
func TestTukeyHSDTwoSystemsIsPairedT(t *testing.T) {
	x := peerScores(2, 30, 7)
	r, err := TukeyHSD(x, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	tt, p, err := PairedTTest(x[0], x[1])
	if err != nil {
		t.Fatal(err)
	}
	got := r.Pairs[0]
	if math.Abs(got.Q-math.Sqrt2*math.Abs(tt)) > 1e-9 || !closeRel(got.P, p, 1e-7, 1e-9) {
		t.Errorf("two systems: q %v p %v, paired t %v p %v (want q = √2|t|, same p)", got.Q, got.P, tt, p)
	}
}

func TestTukeyHSDDegenerate(t *testing.T) {
	// System 1 is system 0 plus 0.1 on every query: no residual, a certain difference.
	r, err := TukeyHSD([][]float64{{0.1, 0.5, 0.9}, {0.2, 0.6, 1.0}, {0.1, 0.5, 0.9}}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Pair(0, 1); p.P != 0 || !math.IsInf(p.Q, 1) {
		t.Errorf("constant difference: %+v, want q = +Inf, p = 0", p)
	}
	if p := r.Pair(0, 2); p.P != 1 || p.Diff != 0 {
		t.Errorf("identical systems: %+v, want p = 1", p)
	}
	for _, c := range []struct {
		name string
		x    [][]float64
		want string
	}{
		{"one system", [][]float64{{1, 2}}, "at least 2 systems"},
		{"unequal", [][]float64{{1, 2}, {1}}, "one score per query"},
		{"one query", [][]float64{{1}, {2}}, "at least 2 queries"},
		{"NaN", [][]float64{{1, math.NaN()}, {1, 2}}, "NaN"},
	} {
		if _, err := TukeyHSD(c.x, 0.95); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// The randomised Tukey test against the exact distribution: with n = 3 queries and m = 3
// systems the 6³ = 216 assignments of each query's scores to the systems are equally likely
// under the null, so the exact p of a pair is the share of them whose largest mean difference
// reaches the pair's. The estimate from 20,000 draws must be within 4 standard errors.
func TestRandomizedTukeyExact(t *testing.T) {
	x := [][]float64{{0.2, 0.5, 0.9}, {0.4, 0.5, 1.0}, {0.1, 0.3, 0.6}}
	perms := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	var largest []float64
	for _, p0 := range perms {
		for _, p1 := range perms {
			for _, p2 := range perms {
				var sums [3]float64
				for j := range 3 {
					sums[j] = x[p0[j]][0] + x[p1[j]][1] + x[p2[j]][2]
				}
				largest = append(largest, (max(sums[0], sums[1], sums[2])-min(sums[0], sums[1], sums[2]))/3)
			}
		}
	}
	const B = 20000
	r, err := RandomizedTukey(x, B, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Pairs {
		hits := 0
		for _, l := range largest {
			if l >= math.Abs(p.Diff)-1e-12 {
				hits++
			}
		}
		exact := float64(hits) / 216
		se := math.Sqrt(exact * (1 - exact) / B)
		if math.Abs(p.P-exact) > 4*se+1.0/B {
			t.Errorf("pair (%d,%d): p %.4f, exact %.4f (SE %.4f)", p.A, p.B, p.P, exact, se)
		}
	}
	same, err := RandomizedTukey([][]float64{{0.3, 0.7}, {0.3, 0.7}}, 100, 1)
	if err != nil || same.Pairs[0].P != 1 {
		t.Errorf("identical systems: %+v, %v; want p = 1", same.Pairs, err)
	}
	again, _ := RandomizedTukey(x, B, 5)
	if again.Pairs[0].P != r.Pairs[0].P {
		t.Error("the same seed gave another p")
	}
}
