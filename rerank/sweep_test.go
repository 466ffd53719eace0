package rerank

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/retrieval"
)

// TestRunSweep: the tiny collection's first stage ranks d1 (not relevant), d2 (relevant), d3
// (unjudged), d4 (relevant) and misses d5 (relevant); the reranker orders d4 d2 d5 d3 d1. At
// K = 2 the deepest reranking (4) has d4 and d2 on top.
func TestRunSweep(t *testing.T) {
	sw, err := RunSweep(tiny(), firstStage(), &table{scores: reranker}, Options{K: 2, Name: "t"}, 4, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Queries != 1 || sw.Relevant != 3 || sw.Never != 1 || sw.K != 2 {
		t.Errorf("queries %d relevant %d never %d K %d, want 1 3 1 2", sw.Queries, sw.Relevant, sw.Never, sw.K)
	}
	if want := []eval.Measure{eval.NDCG(2), eval.Recall(2)}; !reflect.DeepEqual(sw.Measures, want) {
		t.Errorf("measures %v, want %v", sw.Measures, want)
	}
	g := 1 / math.Log2(3) // the gain of a relevant document at rank 2
	idcg := 1 + g         // 3 relevant documents, 2 ranks
	want := []struct {
		depth             int
		tag               string
		ndcg, recall      float64
		ceiling           float64
		scored            float64
		past, pastQ, lost int
	}{
		{0, "bm25", g / idcg, 1.0 / 3, math.NaN(), 0, 2, 1, 1}, // top 2: d1 d2; d4 lost
		{1, "bm25-t1", g / idcg, 1.0 / 3, 0, 1, 2, 1, 1},       // d1 alone reranked
		{2, "bm25-t2", 1 / idcg, 1.0 / 3, 1.0 / 3, 2, 1, 1, 1}, // d2 d1; d4 past 2
		{3, "bm25-t3", 1 / idcg, 1.0 / 3, 1.0 / 3, 3, 1, 1, 1}, // d2 d3 d1; d4 past 3
		{4, "bm25-t4", 1, 2.0 / 3, 2.0 / 3, 4, 0, 0, 0},        // d4 d2 d3 d1
	}
	if len(sw.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(sw.Rows), len(want))
	}
	for i, w := range want {
		r := sw.Rows[i]
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 || math.IsNaN(a) && math.IsNaN(b) }
		if r.Depth != w.depth || r.Run.Tag != w.tag || !near(r.Result.Mean(eval.NDCG(2)), w.ndcg) || !near(r.Result.Mean(eval.Recall(2)), w.recall) ||
			!near(r.Ceiling, w.ceiling) || r.Scored != w.scored || r.Past != w.past || r.PastQueries != w.pastQ || r.Lost != w.lost {
			t.Errorf("row %d: depth %d %s nDCG %.4f R %.4f ceiling %.4f scored %v past %d in %d queries lost %d;\nwant %+v",
				i, r.Depth, r.Run.Tag, r.Result.Mean(eval.NDCG(2)), r.Result.Mean(eval.Recall(2)), r.Ceiling, r.Scored, r.Past, r.PastQueries, r.Lost, w)
		}
		if wantQ := []string(nil); w.lost > 0 && !reflect.DeepEqual(r.LostQueries, []string{"q1"}) || w.lost == 0 && !reflect.DeepEqual(r.LostQueries, wantQ) {
			t.Errorf("row %d: lost queries %v", i, r.LostQueries)
		}
		if r.CPU < 0 || r.Cumulative < r.CPU {
			t.Errorf("row %d: CPU %v, cumulative %v", i, r.CPU, r.Cumulative)
		}
	}
	if sw.Report.Family != 8 || sw.Report.Baseline() != "bm25" {
		t.Errorf("family %d baseline %q, want 8 comparisons (4 depths × 2 measures) against bm25", sw.Report.Family, sw.Report.Baseline())
	}
	header, rows := sw.Table()
	if len(header) != 13 || header[1] != "nDCG@2" || header[4] != "R@2" || header[12] != "lost from top 2 (queries)" || len(rows) != 5 {
		t.Fatalf("table header %q, %d rows", header, len(rows))
	}
	if r := rows[0]; r[0] != "0" || r[2] != "" || r[3] != "" || r[7] != "–" || r[11] != "2 (1)" || r[12] != "1 (1)" {
		t.Errorf("depth 0 row %q", r)
	}
	if r := rows[4]; r[1] != "1.0000" || r[7] != "0.6667" || r[8] != "4.0" || r[11] != "0 (0)" || !strings.HasPrefix(r[2], fmt.Sprintf("%+.4f [", 1-g/idcg)) {
		t.Errorf("depth 4 row %q", r)
	}
	c, err := sw.Report.Comparison("bm25-t4", eval.NDCG(2))
	if err != nil || math.Abs(c.Diff-(1-g/idcg)) > 1e-12 {
		t.Errorf("depth 4 against 0: %+v, %v; want Δ %v", c, err, 1-g/idcg)
	}
}

func TestRunSweepErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		depths []int
	}{{"negative", []int{5, -1}}, {"repeated", []int{5, 10, 5}}} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := RunSweep(tiny(), firstStage(), &table{scores: reranker}, Options{}, c.depths...); err == nil {
				t.Errorf("depths %v: no error", c.depths)
			}
		})
	}
	if _, err := RunSweep(tiny(), firstStage(), &table{scores: reranker}, Options{K: -1}, 1); err == nil {
		t.Error("K -1: no error")
	}
}

// letters is an embed.Embedder whose vector of a text counts its letters a..z (normalised),
// and which counts the texts it embedded.
type letters struct {
	embedded map[string]int
	calls    int
}

func (l *letters) Embed(texts []string) ([][]float32, error) {
	l.calls++
	out := make([][]float32, len(texts))
	for i, t := range texts {
		l.embedded[t]++
		v := make([]float32, 26)
		var n float64
		for _, r := range t {
			if r >= 'a' && r <= 'z' {
				v[r-'a']++
				n++
			}
		}
		for j := range v {
			if n > 0 {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}
func (l *letters) EmbedTokens([][]int32) ([][]float32, error) { panic("not used") }
func (l *letters) WordPiece() embed.WordPiece                 { return embed.WordPiece{} }
func (l *letters) Key() string                                { return "letters" }

// TestBiEncoderEmbedsOnce: a sweep over every depth embeds the query and each candidate once
// (the BiEncoder keeps its vectors), so the deepest depth costs what one pass over the
// candidates costs; a second sweep with the same BiEncoder embeds nothing.
func TestBiEncoderEmbedsOnce(t *testing.T) {
	l := &letters{embedded: map[string]int{}}
	b := BiEncoder(l)
	for range 2 {
		if _, err := RunSweep(tiny(), firstStage(), b, Options{}, 1, 2, 3, 4, 100); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]int{"a query": 1, "d1": 1, "d2": 1, "d3": 1, "d4": 1}
	if !reflect.DeepEqual(l.embedded, want) {
		t.Errorf("embedded %v, want %v", l.embedded, want)
	}
	// Depth 1 embeds the query and d1 in one call, each later depth its new documents in one.
	if l.calls != 4 {
		t.Errorf("%d Embed calls, want 4 (depths 1, 2, 3 and 4; 100 finds nothing new)", l.calls)
	}
	// A document the corpus lacks is named, as with any reranker.
	bad := firstStage()
	bad.Queries["q1"] = append(bad.Queries["q1"], eval.ScoredDoc{Doc: "d9", Score: 9})
	if _, err := Rerank(tiny(), bad, b, Options{Depth: 2}); err == nil || !strings.Contains(err.Error(), "document d9") {
		t.Errorf("unknown document: %v", err)
	}
	// Scores are the cosines of the letter counts: "a query" against "d1" shares no letter but d.
	s, err := b.Score("a query", []string{"d1", "dd"})
	if err != nil {
		t.Fatal(err)
	}
	if s[0] != 0 || s[1] != 0 {
		t.Errorf("scores %v, want 0 0 (no letter in common)", s)
	}
	s, err = b.Score("ab", []string{"ba", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s[0]-1) > 1e-6 || math.Abs(s[1]-1/math.Sqrt2) > 1e-6 {
		t.Errorf("scores %v, want 1 and 1/√2", s)
	}
}

// TestBiEncoderOneCallPerDepth: a depth's new texts go to the model in one call, however many
// queries share them (the model then batches texts of similar length, as a dense run does),
// not in a call per query.
func TestBiEncoderOneCallPerDepth(t *testing.T) {
	c := tiny()
	c.Queries = append(c.Queries, retrieval.Query{ID: "q2", Text: "another query"})
	c.Qrels["q2"] = map[string]int{"d5": 1}
	first := firstStage()
	first.Queries["q2"] = []eval.ScoredDoc{{Doc: "d5", Score: 2}, {Doc: "d4", Score: 1}, {Doc: "d3", Score: 0.5}}
	l := &letters{embedded: map[string]int{}}
	if _, err := RunSweep(c, first, BiEncoder(l), Options{}, 1, 2, 3); err != nil {
		t.Fatal(err)
	}
	// depth 1: both queries, d1 and d5; depth 2: d2 and d4; depth 3: d3.
	if l.calls != 3 {
		t.Errorf("%d Embed calls for 3 depths, want one a depth", l.calls)
	}
	for text, n := range l.embedded {
		if n != 1 {
			t.Errorf("%q embedded %d times", text, n)
		}
	}
}
