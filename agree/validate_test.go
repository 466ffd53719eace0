package agree

import (
	"math"
	"reflect"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

func TestRerankBy(t *testing.T) {
	run := eval.Run{Tag: "bm25", Queries: map[string][]eval.ScoredDoc{
		"q1": {{Doc: "a", Score: 5}, {Doc: "b", Score: 4}, {Doc: "c", Score: 3}, {Doc: "d", Score: 2}, {Doc: "e", Score: 1}},
	}}
	// The judge grades b 3, d 2, a 0 and leaves c unjudged; depth 4 leaves e where it is.
	judge := eval.Qrels{"q1": {"a": 0, "b": 3, "d": 2, "e": 3}}
	got := rerankBy(run, judge, 4)
	var order []string
	for _, d := range eval.Rank(got.Queries["q1"]) {
		order = append(order, d.Doc)
	}
	// Graded first by grade (b 3, d 2, a 0), then the ungraded c; e stays below the depth.
	if want := []string{"b", "d", "a", "c", "e"}; !reflect.DeepEqual(order, want) || got.Tag != "bm25+judge-rerank" {
		t.Errorf("rerankBy: %v (%s), want %v", order, got.Tag, want)
	}
}

func TestValidate(t *testing.T) {
	// People (A) and a judge (B) on two queries; three runs.
	a := eval.Qrels{"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"d": 0, "e": 3}}
	b := eval.Qrels{"q1": {"a": 2, "b": 3, "c": 0}, "q2": {"d": 0, "e": 3}}
	runs := []eval.Run{
		{Tag: "good", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "a", Score: 3}, {Doc: "c", Score: 2}, {Doc: "b", Score: 1}}, "q2": {{Doc: "e", Score: 2}, {Doc: "d", Score: 1}}}},
		{Tag: "mid", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "c", Score: 3}, {Doc: "a", Score: 2}, {Doc: "b", Score: 1}}, "q2": {{Doc: "d", Score: 2}, {Doc: "e", Score: 1}}}},
		{Tag: "bad", Queries: map[string][]eval.ScoredDoc{"q1": {{Doc: "b", Score: 3}, {Doc: "c", Score: 2}, {Doc: "a", Score: 1}}, "q2": {{Doc: "d", Score: 2}, {Doc: "e", Score: 1}}}},
	}
	v, err := Validate(a, b, runs, "mid", 3, Options{Resamples: 200, Measure: eval.P(1)})
	if err != nil {
		t.Fatal(err)
	}
	// Relevant (grade >= 1): A a, c, e = 3 of 5; B a, b, e = 3 of 5.
	if v.BaseRateA != 3.0/5 || v.BaseRateB != 3.0/5 {
		t.Errorf("base rates %v %v, want 0.6 0.6", v.BaseRateA, v.BaseRateB)
	}
	// q1: same grade on a only (1/3), same call on a (2 of 3 differ: b, c); q2 all same.
	want := []QueryAgreement{{"q1", 3, 1.0 / 3, 2, 2, 1.0 / 3}, {"q2", 2, 1, 1, 1, 1}}
	if !reflect.DeepEqual(v.PerQuery, want) {
		t.Errorf("per query %+v, want %+v", v.PerQuery, want)
	}
	// P@1 under A: good (a, e) 1, mid (c, d) 0.5, bad (b, d) 0; under B: good 1, mid 0, bad 0.5:
	// the pairs (good, mid) and (good, bad) concordant, (mid, bad) discordant: τ-b = 1/3.
	if math.Abs(v.Systems.Tau-1.0/3) > 1e-12 || v.Verdict != "noticeable" || v.TopRuns != 2 || v.TopTau != 1 {
		t.Errorf("τ %v, verdict %q, top %d runs τ %v", v.Systems.Tau, v.Verdict, v.TopRuns, v.TopTau)
	}
	// mid reranked by B: q1 a (2) c (0) b (3) → b, a, c: P@1 under A 0, under B 1; q2 d (0), e (3)
	// → e, d: 1 under both. Means: A 0.5 (place 2 of 4: good 1 above, mid 0.5 ties), B 1 (place
	// 1 of 4: nothing above it; good ties). Lifted.
	if v.Reranked != "mid+judge-rerank" || v.MeanA != 0.5 || v.MeanB != 1 || v.RankA != 2 || v.RankB != 1 || !v.Lifted {
		t.Errorf("adversarial run %s: A %v (place %d), B %v (place %d), lifted %v", v.Reranked, v.MeanA, v.RankA, v.MeanB, v.RankB, v.Lifted)
	}
	if _, err := Validate(a, b, runs, "none", 3, Options{}); err == nil {
		t.Error("an unknown run to rerank: no error")
	}
}

// TestKappaByQuery: with one pair per query the bootstrap over queries is the bootstrap over
// pairs (same interval within resampling noise); when a query's pairs all agree or all disagree,
// resampling queries gives a wider interval than resampling pairs.
func TestKappaByQuery(t *testing.T) {
	single, clustered := eval.Qrels{}, eval.Qrels{}
	b1, b2 := eval.Qrels{}, eval.Qrels{}
	for q := range 60 {
		qid := string(rune('A'+q/26)) + string(rune('a'+q%26))
		single[qid] = map[string]int{"d": q % 2}
		b1[qid] = map[string]int{"d": q % 2}
		if q%5 == 0 {
			b1[qid]["d"] = 1 - q%2
		}
		clustered[qid], b2[qid] = map[string]int{}, map[string]int{}
		for d := range 8 {
			id := string(rune('a' + d))
			clustered[qid][id] = (q + d) % 2
			b2[qid][id] = clustered[qid][id]
			if q%5 == 0 {
				b2[qid][id] = 1 - clustered[qid][id] // the whole query disagrees
			}
		}
	}
	opt := Options{Resamples: 4000, Seed: 1}
	byPair := func(a, b eval.Qrels) Kappa { ag, _ := Judges(a, b, opt); return ag.Binary }
	byQuery := func(a, b eval.Qrels) Kappa { o := opt; o.ByQuery = true; ag, _ := Judges(a, b, o); return ag.Binary }
	p, q := byPair(single, b1), byQuery(single, b1)
	if p.Value != q.Value || math.Abs(p.Low-q.Low) > 0.03 || math.Abs(p.High-q.High) > 0.03 {
		t.Errorf("one pair a query: by pairs %+v, by queries %+v", p, q)
	}
	p, q = byPair(clustered, b2), byQuery(clustered, b2)
	if wp, wq := p.High-p.Low, q.High-q.Low; !(wq > 1.8*wp) {
		t.Errorf("clustered disagreement: width by pairs %.3f, by queries %.3f (want much wider)", wp, wq)
	}
}
