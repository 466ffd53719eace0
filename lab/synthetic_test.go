package lab

import (
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"math"
	"reflect"
	"slices"
	"testing"
)

func TestNewSyntheticProperties(t *testing.T) {
	for _, n := range []int{1, 2, 7, 20, 45, 100} {
		for _, q := range []float64{0, 0.4, 1} {
			for seed := int64(-3); seed < 12; seed++ {
				syn := newSynthetic(seed, n, q, 0.5)
				name := fmt.Sprintf("seed %d n %d quality %v", seed, n, q)
				if len(syn.Candidates) != n {
					t.Fatalf("%s: %d candidates", name, len(syn.Candidates))
				}
				if want := max(1, int(math.Round(0.15*float64(n)))); len(syn.Missed) != want {
					t.Fatalf("%s: %d missed, want %d", name, len(syn.Missed), want)
				}
				width := max(2, len(fmt.Sprint(n+len(syn.Missed))))
				docs := map[string]bool{}
				labels := map[string]bool{}
				rerank := map[float64]bool{}
				for i, c := range append(slices.Clone(syn.Candidates), syn.Missed...) {
					if want := fmt.Sprintf("d%0*d", width, i+1); c.Doc != want {
						t.Fatalf("%s: doc %d is %q, want %q", name, i, c.Doc, want)
					}
					if docs[c.Doc] || labels[c.Label] || c.Label == "" {
						t.Fatalf("%s: doc %q or label %q repeated or empty", name, c.Doc, c.Label)
					}
					docs[c.Doc], labels[c.Label] = true, true
					lo := 0
					if i >= n {
						lo = 1 // missed items are judged relevant
						if c.FirstScore != 0 || c.RerankScore != 0 {
							t.Fatalf("%s: missed %+v has scores", name, c)
						}
					} else {
						if rerank[c.RerankScore] {
							t.Fatalf("%s: reranker score %v repeated", name, c.RerankScore)
						}
						rerank[c.RerankScore] = true
					}
					if c.Grade < lo || c.Grade > MaxGrade {
						t.Fatalf("%s: grade %d", name, c.Grade)
					}
				}
				for i := 1; i < n; i++ {
					if syn.Candidates[i].FirstScore >= syn.Candidates[i-1].FirstScore {
						t.Fatalf("%s: first-stage scores not strictly descending at %d", name, i)
					}
				}
				if q == 1 {
					// A perfect first stage orders by grade.
					for i := 1; i < n; i++ {
						if syn.Candidates[i].Grade > syn.Candidates[i-1].Grade {
							t.Fatalf("%s: quality 1 puts grade %d below grade %d", name, syn.Candidates[i].Grade, syn.Candidates[i-1].Grade)
						}
					}
				}
				if !reflect.DeepEqual(syn, newSynthetic(seed, n, q, 0.5)) {
					t.Fatalf("%s: not deterministic", name)
				}
			}
		}
	}
	if len(newSynthetic(1, 0, 0.5, 0.5).Candidates) != 0 {
		t.Error("n = 0 is not empty")
	}
	if reflect.DeepEqual(newSynthetic(1, 20, 0.4, 0.5), newSynthetic(2, 20, 0.4, 0.5)) {
		t.Error("seeds 1 and 2 give the same ranking")
	}
}

func TestNewSyntheticLabelsBeyondTheList(t *testing.T) {
	syn := newSynthetic(5, 2*len(topics), 0.5, 0.5)
	seen := map[string]bool{}
	for _, c := range append(syn.Candidates, syn.Missed...) {
		if seen[c.Label] {
			t.Fatalf("label %q repeated", c.Label)
		}
		seen[c.Label] = true
	}
}

func TestNewSyntheticPanics(t *testing.T) {
	for _, c := range []struct {
		n     int
		q, rq float64
	}{{-1, 0.5, 0.5}, {5, -0.1, 0.5}, {5, 1.1, 0.5}, {5, math.NaN(), 0.5}, {5, 0.5, -0.01}, {5, 0.5, 1.01}, {5, 0.5, math.NaN()}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("newSynthetic(n=%d, quality=%v, rerankQuality=%v) did not panic", c.n, c.q, c.rq)
				}
			}()
			newSynthetic(1, c.n, c.q, c.rq)
		}()
	}
}

// The reranker quality changes the reranker scores and nothing else, and the scores follow the
// documented formula rerankQuality·grade/3 + (1−rerankQuality)·v, where v is the score at
// quality 0 (pure noise).
func TestNewSyntheticRerankQuality(t *testing.T) {
	for seed := int64(-2); seed < 8; seed++ {
		for _, n := range []int{1, 20, 45} {
			noise := newSynthetic(seed, n, 0.4, 0)
			for _, rq := range []float64{0.25, 0.5, 1} {
				syn := newSynthetic(seed, n, 0.4, rq)
				name := fmt.Sprintf("seed %d n %d rerank quality %v", seed, n, rq)
				if syn.Query != noise.Query || !reflect.DeepEqual(syn.Missed, noise.Missed) {
					t.Fatalf("%s: query or missed items change with the reranker quality", name)
				}
				for i, c := range syn.Candidates {
					c0 := noise.Candidates[i]
					if c.Doc != c0.Doc || c.Label != c0.Label || c.Grade != c0.Grade || c.FirstScore != c0.FirstScore {
						t.Fatalf("%s: candidate %d %+v differs from %+v beyond the reranker score", name, i, c, c0)
					}
					// Each score is rounded to 4 decimals and may be lowered by 0.0001 steps to make it
					// distinct; at quality 1 equal grades are all distinct by such steps (up to n of them).
					want := rq*float64(c.Grade)/MaxGrade + (1-rq)*c0.RerankScore
					tol := 0.0001*float64(n) + 1e-9
					if rq < 1 {
						tol = 0.0003 + 1e-9
					}
					if math.Abs(c.RerankScore-want) > tol {
						t.Fatalf("%s: candidate %d reranker score %v, formula gives %v", name, i, c.RerankScore, want)
					}
				}
				if rq == 1 {
					// A perfect reranker orders by grade; equal grades keep their first-stage order.
					order := RerankOrder(syn.Candidates, n)
					for i := 1; i < n; i++ {
						a, b := syn.Candidates[order[i-1]], syn.Candidates[order[i]]
						if a.Grade < b.Grade || a.Grade == b.Grade && order[i-1] > order[i] {
							t.Fatalf("%s: quality 1 ranks %s (grade %d) above %s (grade %d)", name, a.Doc, a.Grade, b.Doc, b.Grade)
						}
					}
				}
			}
		}
	}
}

// The candidate list is the first-stage ranking in trec_eval's order too: written as a run with
// its first-stage scores, the evaluator's Rank gives the same order.
func TestSyntheticOrderIsTrecOrder(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		syn := newSynthetic(seed, 50, 0.3, 0.5)
		docs := make([]eval.ScoredDoc, len(syn.Candidates))
		for i, c := range syn.Candidates {
			docs[len(docs)-1-i] = eval.ScoredDoc{Doc: c.Doc, Score: c.FirstScore} // file order reversed
		}
		for i, d := range eval.Rank(docs) {
			if d.Doc != syn.Candidates[i].Doc {
				t.Fatalf("seed %d: rank %d is %s, candidate list has %s", seed, i+1, d.Doc, syn.Candidates[i].Doc)
			}
		}
	}
}

// The default state is chosen so that every control visibly matters (see State's doc comment,
// whose claims this test checks).
func TestDefaultStateEveryControlMatters(t *testing.T) {
	s := DefaultState()
	o, err := s.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	m, f := o.Metrics, o.FirstMetrics
	l2 := math.Log2
	if o.Query != "how do I make retrieval robust to real user queries?" {
		t.Errorf("query %q", o.Query)
	}

	// The first stage: d01 (grade 0) first, grades 0, 1, 3, 0, 0 in the top 5.
	var firstTop []int
	for _, it := range o.FirstStage[:5] {
		firstTop = append(firstTop, it.Grade)
	}
	if !slices.Equal(firstTop, []int{0, 1, 3, 0, 0}) || o.FirstStage[0].Doc != "d01" {
		t.Errorf("first-stage top 5 grades %v, the doc says d01 first and 0, 1, 3, 0, 0", firstTop)
	}

	// Reranking changes the prefix order and moves items into the top k, one of them not relevant.
	var in, out, top []string
	for _, it := range o.Items {
		if it.InsideK && it.FirstRank > s.K {
			in = append(in, it.Doc)
		}
		if !it.InsideK && it.FirstRank <= s.K {
			out = append(out, it.Doc)
		}
		if it.InsideK {
			top = append(top, fmt.Sprint(it.Doc, ":", it.Grade))
		}
	}
	if !slices.Equal(in, []string{"d09", "d10"}) || !slices.Equal(out, []string{"d05", "d01"}) {
		t.Errorf("reranking moved %v in and %v out, the doc says d09, d10 in and d05, d01 out", in, out)
	}
	if !slices.Equal(top, []string{"d03:3", "d09:1", "d04:0", "d10:0", "d02:1"}) {
		t.Errorf("reranked top 5 %v: the doc says d03 first and d02 below two non-relevant items", top)
	}
	// ideal: the judged grades 3, 2, 2, 1, 1 (d03, d21, d22, then grade 1s)
	idcg := 7/l2(2) + 3/l2(3) + 3/l2(4) + 1/l2(5) + 1/l2(6)
	if f.Precision != 2.0/5 || m.Precision != 3.0/5 || f.MRR != 1.0/2 || m.MRR != 1 ||
		!near(f.NDCG, (1/l2(3)+7/l2(4))/idcg) || !near(m.NDCG, (7/l2(2)+1/l2(3)+1/l2(6))/idcg) {
		t.Errorf("first stage %+v, reranked %+v", f, m)
	}
	if got := num(f.NDCG) + " " + num(m.NDCG); got != "0.368 0.715" {
		t.Errorf("nDCG@5 first stage, reranked = %s, the doc says 0.368 0.715", got)
	}

	// A perfect reranker orders the prefix by grade; a noise reranker hurts.
	perfect := s
	perfect.RerankQuality = 100
	op, _ := perfect.Outcome()
	if d := []string{op.Items[0].Doc, op.Items[1].Doc, op.Items[2].Doc}; !slices.Equal(d, []string{"d03", "d02", "d09"}) ||
		!near(op.Metrics.NDCG, (7/l2(2)+1/l2(3)+1/l2(4))/idcg) || num(op.Metrics.NDCG) != "0.725" {
		t.Errorf("rerank quality 100: top 3 %v, nDCG@5 %v; the doc says d03, d02, d09 and 0.725", d, op.Metrics.NDCG)
	}
	noise := s
	noise.RerankQuality = 0
	on, _ := noise.Outcome()
	if on.Metrics.Precision != 1.0/5 || num(on.Metrics.NDCG) != "0.045" || on.FirstMetrics != f {
		t.Errorf("rerank quality 0: %+v (the doc says P@5 1/5, nDCG@5 0.045, the same first stage)", on.Metrics)
	}

	// Relevant items sit below k and below the rerank depth; depth 14 lifts d14 into the top k,
	// depth 15 both d14 and d15, depth 13 neither.
	var below []string
	for _, it := range o.Items {
		if it.Relevant && !it.InsideK {
			below = append(below, it.Doc)
		}
	}
	if !slices.Equal(below, []string{"d14", "d15"}) {
		t.Errorf("relevant below k: %v, the doc says d14, d15", below)
	}
	for depth, want := range map[int][]bool{13: {false, false}, 14: {true, false}, 15: {true, true}, 20: {true, true}} {
		deep := s
		deep.Rerank = depth
		od, _ := deep.Outcome()
		for i, doc := range []string{"d14", "d15"} {
			if got := slices.ContainsFunc(od.Items[:s.K], func(it Item) bool { return it.Doc == doc }); got != want[i] {
				t.Errorf("rerank depth %d: %s in the top %d is %v, the doc says %v", depth, doc, s.K, got, want[i])
			}
		}
	}

	// The grades differ and the threshold changes precision.
	grades := map[int]bool{}
	for _, c := range append(slices.Clone(o.Items), o.FirstStage...) {
		grades[c.Grade] = true
	}
	for _, c := range o.Missed {
		grades[c.Grade] = true
	}
	if len(grades) != MaxGrade+1 {
		t.Errorf("judged grades %v do not cover 0..%d", grades, MaxGrade)
	}
	g2 := s
	g2.MinGrade = 2
	o2, _ := g2.Outcome()
	if o2.Metrics.Precision != 1.0/5 || o2.Metrics.NDCG != m.NDCG {
		t.Errorf("grade=2: %+v (P@5 should drop to 1/5, nDCG stay %v)", o2.Metrics, m.NDCG)
	}

	// The missed items keep recall below 1 at k = N.
	all := s
	all.K = s.Size
	oa, _ := all.Outcome()
	if oa.Metrics.Recall != 5.0/8 || m.Recall != 3.0/8 || m.Denominator != 8 {
		t.Errorf("recall@5 = %v, recall@20 = %v, R = %d; the doc says 3/8, 5/8, 8", m.Recall, oa.Metrics.Recall, m.Denominator)
	}
	var missed []string
	for _, c := range o.Missed {
		missed = append(missed, fmt.Sprint(c.Doc, ":", c.Grade))
	}
	if !slices.Equal(missed, []string{"d21:2", "d22:2", "d23:1"}) {
		t.Errorf("missed %v", missed)
	}

	// The raised denominator changes recall only.
	raised := s
	raised.Total = 12
	or, _ := raised.Outcome()
	if or.Metrics.Recall != 3.0/12 || or.Metrics.NDCG != m.NDCG || or.Metrics.Precision != m.Precision {
		t.Errorf("total=12: %+v", or.Metrics)
	}

	// The default footprint is the one documented.
	if fp := o.Footprint; fp.Stride != 384 || fp.Chunks != 26 || fp.Indexed != 13200 || fp.Duplicated != 3200 || fp.Duplication != 0.32 {
		t.Errorf("default footprint %+v", fp)
	}
}

func TestRerankOrder(t *testing.T) {
	c := cands([]int{0, 0, 0, 0, 0}, []float64{0.1, 0.5, 0.5, 0.9, 0.3})
	cases := []struct {
		depth int
		want  []int
	}{
		{0, []int{0, 1, 2, 3, 4}},
		{1, []int{0, 1, 2, 3, 4}},
		{2, []int{1, 0, 2, 3, 4}},
		{3, []int{1, 2, 0, 3, 4}}, // b and c tie at 0.5: first-stage order
		{4, []int{3, 1, 2, 0, 4}},
		{5, []int{3, 1, 2, 4, 0}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint("depth ", tc.depth), func(t *testing.T) {
			before := slices.Clone(c)
			if got := RerankOrder(c, tc.depth); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if !slices.Equal(before, c) {
				t.Error("candidates modified")
			}
		})
	}
	for _, d := range []int{-1, 6} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("depth %d did not panic", d)
				}
			}()
			RerankOrder(c, d)
		}()
	}
}

// The reranker saturates at quality 3/4: with x = grade/3 and uniform noise v, two grades one
// step apart differ by r/3 in signal and at most (1−r) in noise, and r/3 ≥ 1−r from r = 3/4 on.
// Every quality from 0.75 up sorts the prefix by grade; just below it some prefix is not sorted.
func TestRerankerSaturatesAtThreeQuarters(t *testing.T) {
	sorted := func(rq float64, seed int64) bool {
		syn := newSynthetic(seed, 20, DefaultQuality, rq)
		order := RerankOrder(syn.Candidates, 20)
		for i := 1; i < len(order); i++ {
			if syn.Candidates[order[i-1]].Grade < syn.Candidates[order[i]].Grade {
				return false
			}
		}
		return true
	}
	for _, rq := range []float64{0.75, 0.8, 0.9, 1} {
		for seed := int64(1); seed <= 500; seed++ {
			if !sorted(rq, seed) {
				t.Fatalf("quality %v, seed %d: the reranked prefix is not sorted by grade", rq, seed)
			}
		}
	}
	unsorted := 0
	for seed := int64(1); seed <= 500; seed++ {
		if !sorted(0.7, seed) {
			unsorted++
		}
	}
	if unsorted == 0 {
		t.Error("quality 0.7: every prefix sorted by grade; the swap probability (1 − c)²/2 with c = 0.7/0.9 is about 0.025 a pair")
	}
}
